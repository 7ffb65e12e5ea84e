"""`leadctl leads create`: the installed CLI against the sandbox (`leads list`:
test_list_e2e.py beside this file).

Each guarantee meets the installed program (exit codes, stdout for a pipe, the terminal,
jq at the other end of a pipe); the reads a test compares against (counts, the whole list,
waiting for intake), logging in and a test's further commands run in-process
(``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
import re
import time
import uuid
from typing import Any

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

Env = dict[str, str]


def plain(text: str) -> str:
    """Terminal output without its color escapes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def settled(env: Env, lead_id: str) -> dict[str, Any]:
    """The lead once intake processed it (the sandbox's intake delay is 0.2 s)."""
    deadline = time.monotonic() + 10
    while True:
        result = run_in_process(
            ["leads", "list", "--filter", f"id={lead_id}", "-o", "json"], env=env
        )
        assert result.exit_code == 0, result.stderr
        leads = json.loads(result.stdout)
        assert [lead["id"] for lead in leads] == [lead_id]
        if leads[0]["processingStatus"] != "Pending" or time.monotonic() > deadline:
            return dict(leads[0])
        time.sleep(0.2)


# -- create ---------------------------------------------------------------------------


def test_a_created_lead_shows_up_in_the_list(sandbox: SandboxProcess, org_env: Env) -> None:
    marker = f"E2e{uuid.uuid4().hex[:10]}"
    sandbox.clear_requests()
    created = run_leadctl(
        [
            "leads",
            "create",
            "--field",
            "firstName=Ada",
            "--field",
            f"lastName={marker}",
            "--field",
            "phone=+1 (512) 555-0143",
            "--field",
            "state=TX",
            "--field",
            "tags[]=e2e",
        ],
        env=org_env,
    )
    assert created.exit_code == 0, created.stderr
    lead = json.loads(created.stdout)
    assert lead["processingStatus"] == "Pending"
    assert lead["lastName"] == marker
    assert f"--filter id={lead['id']}" in created.stderr
    [sent] = [r for r in sandbox.requests() if r["operationId"] == "createLead"]
    assert sent["body"] == {
        "firstName": "Ada",
        "lastName": marker,
        "phone": "+15125550143",
        "state": "TX",
        "tags": ["e2e"],
    }
    found = settled(org_env, lead["id"])
    assert found["processingStatus"] == "Accepted"
    assert found["status"]["name"] == "New"
    assert [tag["name"] for tag in found["tags"]] == ["e2e"]
    searched = run_in_process(
        ["leads", "list", "--search", marker, "-o", "value", "--columns", "id,phone,state"],
        env=org_env,
    )
    assert searched.stdout == f"{lead['id']}\t+15125550143\tTX\n"


def test_create_on_a_terminal_with_fields_over_a_data_file(org_env: Env, tmp_path: Any) -> None:
    marker = f"E2e{uuid.uuid4().hex[:10]}"
    data = tmp_path / "lead.json"
    data.write_text(
        json.dumps({"lastName": "replaced", "email": f"{marker.lower()}@example.test"}),
        encoding="utf-8",
    )
    result = run_leadctl_tty(
        ["leads", "create", "--data", f"@{data}", "--field", f"lastName={marker}"], env=org_env
    )
    assert result.exit_code == 0, result.stderr
    assert "\x1b[" in result.stdout  # a terminal gets color
    rows = {
        field: value.strip()
        for field, _, value in (line.partition(" ") for line in plain(result.stdout).splitlines())
    }
    assert rows["processingStatus"] == "Pending"
    assert rows["lastName"] == marker
    assert rows["email"] == f"{marker.lower()}@example.test"
    lead_id = rows["id"]
    assert settled(org_env, lead_id)["lastName"] == marker


def test_a_source_key_may_create_leads_and_nothing_else(
    sandbox: SandboxProcess, org_env: Env
) -> None:
    website = next(s for s in sandbox.info()["sources"] if s["name"] == "Website form")
    # Stated as a source key: nothing in the bundled contract tells one from any token.
    login = ["-p", "web", "auth", "login", "--kind", "source", "--with-token", "--no-contract"]
    logged_in = run_in_process(
        [*login, "--base-url", sandbox.base_url, "--insecure-storage"],
        stdin=sandbox.credentials.sources[website["id"]],
    )
    assert logged_in.exit_code == 0, logged_in.stderr
    source_env = {"LEADCTL_PROFILE": "web"}
    created = run_in_process(
        ["leads", "create", "--field", "email=intake@example.test", "--field", "state=TX"],
        env=source_env,
    )
    assert created.exit_code == 0, created.stderr
    lead = json.loads(created.stdout)
    assert settled(org_env, lead["id"])["sourceId"] == website["id"]
    sandbox.clear_requests()
    refused = run_leadctl(["leads", "list"], env=source_env)
    assert refused.exit_code == 4
    assert "leads create" in refused.stderr
    assert sandbox.requests() == []


def test_bad_input_is_exit_2_and_reaches_no_service(sandbox: SandboxProcess, org_env: Env) -> None:
    sandbox.clear_requests()
    bad_phone = run_leadctl(["leads", "create", "--field", "phone=+1 512 555"], env=org_env)
    assert bad_phone.exit_code == 2
    assert "phone" in bad_phone.stderr
    bad_range = run_in_process(["leads", "list", "--range", "createdAt=>2026-01-01"], env=org_env)
    assert bad_range.exit_code == 2
    assert "'=>' is not an operator" in bad_range.stderr
    assert bad_phone.stdout == bad_range.stdout == ""
    assert sandbox.requests() == []


def test_a_typo_in_a_field_name_is_exit_2_on_the_sandbox() -> None:
    # Issue 23.3, the README's promise: the service would drop the field and the first
    # name would be lost without a word.
    result = run_leadctl(
        [
            "-p",
            "sandbox",
            "leads",
            "create",
            "--field",
            "frstName=Ada",
            "--field",
            "phone=+15125550143",
        ]
    )

    assert result.exit_code == 2
    assert "--field 'frstName' is not a field of the active contract's lead" in result.stderr
    assert "did you mean firstName?" in result.stderr
    assert result.stdout == ""
