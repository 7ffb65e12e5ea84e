"""``sandbox serve --leads N``: N generated leads on first start, listable page by page."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx

from leadctl_sandbox.seed import MAIN_LEADS
from tests.support.sandbox_server import SandboxProcess, sandbox_server

BULK = 1500


def all_leads(api: httpx.Client) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    body: dict[str, Any] = {"pageSize": 200}
    while True:
        page = api.post("/leads/all/my", json=body).json()
        items += page["items"]
        if not page["continuationToken"]:
            return items
        body = {"pageSize": 200, "continuationToken": page["continuationToken"]}


def bulk_of(sandbox: SandboxProcess) -> list[dict[str, Any]]:
    with sandbox.client() as api:
        return [lead for lead in all_leads(api) if lead["email"].endswith("@bulk.example")]


def test_generated_leads_page_through_once_each_newest_first() -> None:
    with sandbox_server(seed=3, extra_args=["--leads", str(BULK)]) as sandbox:
        with sandbox.client() as api:
            count = api.post("/leads/all/my", json={"includeCount": True, "pageSize": 1})
            leads = all_leads(api)
        with sandbox_server(seed=3, extra_args=["--leads", str(BULK)]) as again:
            same_seed = bulk_of(again)
    assert count.json()["totalCount"] == MAIN_LEADS + BULK
    bulk = [lead for lead in leads if lead["email"].endswith("@bulk.example")]
    assert len(bulk) == BULK
    assert len({lead["id"] for lead in leads}) == len(leads)
    assert len({lead["email"] for lead in bulk}) == BULK
    created = [lead["createdAt"] for lead in leads]
    assert created == sorted(created, reverse=True)
    assert all(lead["processingStatus"] == "Accepted" for lead in bulk)
    assert {lead["id"] for lead in same_seed} == {lead["id"] for lead in bulk}


def test_leads_is_for_the_first_start_only(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with sandbox_server(data_dir=state, seed=3, extra_args=["--leads", "50"]) as first:
        assert len(bulk_of(first)) == 50
    with sandbox_server(data_dir=state, extra_args=["--leads", "50"]) as second:
        assert len(bulk_of(second)) == 50
        second.process.send_signal(signal.SIGINT)
        second.process.wait(15)
        assert "--leads 50 is ignored" in second.stderr_text()
