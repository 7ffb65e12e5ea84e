"""What the tests of ``users`` share."""

from __future__ import annotations

import json
from typing import Any

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL

URL = f"{BASE_URL}/users/compliance"

USER = {
    "id": "usr_1",
    "name": "Ada Lovelace",
    "email": "ada@example.test",
    "createdAt": "2026-01-01T00:00:00Z",
    "compliance": {
        "acceptedTerms": True,
        "acceptedToSubscription": False,
        "acceptedSms": True,
        "acceptedBaa": False,
        "acceptedEmail": True,
        "consentCertificates": None,
    },
    "roles": ["Admin"],
}


def sent_json(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]
