"""RequestDataOptions on leads and announcements: paging, search, filters, ranges, order, count."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest

from tests.support.sandbox_server import SandboxProcess


def _page(api: httpx.Client, body: dict[str, Any], path: str = "/leads/all/my") -> dict[str, Any]:
    response = api.post(path, json=body)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def _all(
    api: httpx.Client, body: dict[str, Any], path: str = "/leads/all/my"
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    token = None
    while True:
        page = _page(api, {**body, "continuationToken": token}, path)
        assert len(page["items"]) <= body.get("pageSize", 25)
        items += page["items"]
        token = page["continuationToken"]
        if token is None:
            return items


def test_pages_hold_at_most_page_size_and_the_last_has_no_token(api: httpx.Client) -> None:
    rejected = [{"field": "processingStatus", "value": "Rejected"}]
    first = _page(api, {"pageSize": 3, "includeCount": True, "filters": rejected})
    total = first["totalCount"]
    assert total > 3
    items = _all(api, {"pageSize": 3, "filters": rejected})
    assert len(items) == total
    assert len({item["id"] for item in items}) == total
    assert all(item["processingStatus"] == "Rejected" for item in items)


def test_page_size_is_an_upper_bound_not_a_promise(api: httpx.Client) -> None:
    page = _page(api, {"pageSize": 1000, "includeCount": True})
    assert page["totalCount"] > 200
    assert len(page["items"]) == 200  # the server's own cap
    assert page["continuationToken"] is not None


def test_count_only_when_asked(api: httpx.Client) -> None:
    assert _page(api, {"pageSize": 1})["totalCount"] is None
    assert isinstance(_page(api, {"pageSize": 1, "includeCount": True})["totalCount"], int)


@pytest.mark.parametrize(
    "change",
    [
        {"filters": [{"field": "state", "value": "TX"}]},
        {"orderBy": [{"field": "firstName"}]},
        {"search": "a"},
        {"rangeFilters": [{"field": "createdAt", "greaterThan": "2000-01-01"}]},
    ],
)
def test_token_is_bound_to_filters_and_sort(api: httpx.Client, change: dict[str, Any]) -> None:
    token = _page(api, {"pageSize": 3})["continuationToken"]
    response = api.post("/leads/all/my", json={"pageSize": 3, "continuationToken": token, **change})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    assert list(response.json()["errors"]) == ["continuationToken"]


def test_page_size_may_change_between_pages(api: httpx.Client) -> None:
    token = _page(api, {"pageSize": 3})["continuationToken"]
    assert len(_page(api, {"pageSize": 5, "continuationToken": token})["items"]) == 5


def test_a_token_the_server_did_not_issue_is_400(api: httpx.Client) -> None:
    response = api.post("/leads/all/my", json={"continuationToken": "eyJrIjpbXX0.forged"})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["continuationToken"]


def test_rows_added_while_paging_do_not_shift_pages(api: httpx.Client) -> None:
    first = _page(api, {"pageSize": 10})
    api.post("/leads", json={"firstName": "Latecomer", "phone": "+15125550199"})
    second = _page(api, {"pageSize": 10, "continuationToken": first["continuationToken"]})
    first_ids = {item["id"] for item in first["items"]}
    assert not first_ids & {item["id"] for item in second["items"]}
    assert second["items"][0]["createdAt"] <= first["items"][-1]["createdAt"]


def test_default_order_is_newest_first_and_order_by_works(api: httpx.Client) -> None:
    newest = _page(api, {"pageSize": 50})["items"]
    stamps = [lead["createdAt"] for lead in newest]
    assert stamps == sorted(stamps, reverse=True)
    by_name = _all(
        api,
        {
            "pageSize": 100,
            "orderBy": [{"field": "lastName"}, {"field": "firstName", "direction": "desc"}],
        },
    )
    keys = [(lead["lastName"] or "", lead["firstName"] or "") for lead in by_name]
    assert [k[0] for k in keys] == sorted(k[0] for k in keys)
    for (last_a, first_a), (last_b, first_b) in itertools.pairwise(keys):
        if last_a == last_b:
            assert first_a >= first_b


def test_search_and_search_fields(api: httpx.Client) -> None:
    oldest = {"pageSize": 1, "orderBy": [{"field": "createdAt", "direction": "asc"}]}
    someone = _page(api, oldest)["items"][0]  # seeded, so it has every field
    needle = someone["lastName"][1:5].upper()
    found = _all(api, {"pageSize": 100, "search": needle})
    assert someone["id"] in {lead["id"] for lead in found}
    for lead in found:
        haystack = " ".join(lead[f] or "" for f in ("firstName", "lastName", "email", "phone"))
        assert needle.lower() in haystack.lower()
    phone_only = _all(api, {"pageSize": 100, "search": needle, "searchFields": ["phone"]})
    assert phone_only == []
    by_email = _all(api, {"pageSize": 100, "search": someone["email"], "searchFields": ["email"]})
    assert [lead["id"] for lead in by_email] == [someone["id"]]


def test_filters_match_values_lists_and_tags(api: httpx.Client) -> None:
    texas_or_ca = _all(
        api, {"pageSize": 200, "filters": [{"field": "state", "value": ["TX", "ca"]}]}
    )
    assert texas_or_ca and {lead["state"].upper() for lead in texas_or_ca} <= {"TX", "CA"}
    solar = _all(api, {"pageSize": 200, "filters": [{"field": "tags", "value": "solar"}]})
    assert solar and all("Solar" in {t["name"] for t in lead["tags"]} for lead in solar)
    won = _all(
        api,
        {
            "pageSize": 200,
            "filters": [
                {"field": "status.name", "value": "Won"},
                {"field": "product", "value": "solar"},
            ],
        },
    )
    assert all(lead["status"]["name"] == "Won" and lead["product"] == "solar" for lead in won)
    no_source = _all(api, {"pageSize": 200, "filters": [{"field": "sourceId", "value": None}]})
    assert no_source and all(lead["sourceId"] is None for lead in no_source)


def test_range_filters(api: httpx.Client) -> None:
    everything = _all(api, {"pageSize": 200})
    stamps = sorted(lead["createdAt"] for lead in everything)
    low, high = stamps[len(stamps) // 4], stamps[3 * len(stamps) // 4]
    inside = _all(
        api,
        {
            "pageSize": 200,
            "rangeFilters": [{"field": "createdAt", "greaterThanOrEqual": low, "lessThan": high}],
        },
    )
    assert inside
    assert all(low <= lead["createdAt"] < high for lead in inside)
    assert len(inside) == sum(1 for s in stamps if low <= s < high)
    day = low[:10]
    since_day = _all(
        api, {"pageSize": 200, "rangeFilters": [{"field": "createdAt", "greaterThan": day}]}
    )
    assert all(lead["createdAt"] > day for lead in since_day)


def test_unknown_filter_field_is_400(api: httpx.Client) -> None:
    response = api.post("/leads/all/my", json={"filters": [{"field": "password", "value": "x"}]})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["filters[0].field"]


def test_announcements_page_and_filter_by_read_state(sandbox: SandboxProcess) -> None:
    with sandbox.client() as api:
        everything = _all(api, {"pageSize": 5}, "/notifications/announcements")
        unread = _all(
            api,
            {"pageSize": 5, "filters": [{"field": "isRead", "value": False}]},
            "/notifications/announcements",
        )
    assert len(everything) == 12
    assert unread and all(not item["isRead"] and item["readAtDisplay"] == "" for item in unread)
    assert any(item["isRead"] for item in everything)
    with sandbox.client(sandbox.credentials.read_only_user) as api:
        theirs = _all(api, {"pageSize": 50}, "/notifications/announcements")
    mine = {item["id"]: item["isRead"] for item in everything}
    assert {item["id"] for item in theirs} == set(mine)
    assert all(not item["isRead"] for item in theirs)  # read state is per user
