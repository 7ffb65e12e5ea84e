"""What the tests of ``lead-statuses`` share."""

from __future__ import annotations

from tests.support.cli import BASE_URL

URL = f"{BASE_URL}/lead-statuses"

STATUSES = [
    {
        "id": "st_won",
        "name": "Won",
        "color": "#22c55e",
        "category": "Converted",
        "sortOrder": 3,
        "isArchived": False,
        "futureField": "kept",
    },
    {
        "id": "st_new",
        "name": "New",
        "color": "#3b82f6",
        "category": "Open",
        "sortOrder": 1,
        "isArchived": False,
    },
    {
        "id": "st_old",
        "name": "Legacy",
        "color": "not-a-color",
        "category": "Lost",
        "sortOrder": 2,
        "isArchived": True,
    },
    {"id": "st_unsorted", "name": "Unsorted", "category": "Open"},
    {"id": "st_tie", "name": "Tie", "color": "#ef4444", "category": "Open", "sortOrder": 1},
]


URL = f"{BASE_URL}/lead-statuses"
