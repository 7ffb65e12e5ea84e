"""What the tests of ``notifications`` share."""

from __future__ import annotations

import json
from typing import Any

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL

URL = f"{BASE_URL}/notifications/announcements"

UNREAD = {
    "id": "ann_1",
    "name": "New dialer",
    "message": "Calls now ring in the browser.",
    "createdAt": "2026-11-20T08:00:00Z",
    "createdAtDisplay": "Nov 20",
    "readAtDisplay": "",
    "isRead": False,
    "somethingNew": [1, 2],
}

READ = {
    "id": "ann_2",
    "name": "Maintenance",
    "message": "Sunday 02:00 UTC.",
    "createdAt": "2026-11-19T08:00:00Z",
    "readAtDisplay": "Nov 19",
    "isRead": True,
}


def sent_json(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]


LONG = {
    "id": "ann_3",
    "name": "A rather long announcement title that goes on and on",
    "message": "word " * 60,
    "createdAt": "2026-11-18T08:00:00Z",
    "isRead": False,
}
