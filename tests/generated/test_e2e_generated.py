"""The installed ``leadctl`` against a sandbox over 127.0.0.1: contracts and generated commands.

Each guarantee meets the installed program (exit codes, the terminal, a real `contract pull` and
`contract import`); the reads that check what a command did, the seeding and a test's further
commands run in-process (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadctl.contract import CONTRACT_FILE
from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess, sandbox_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxProcess]:
    with sandbox_server() as server:
        yield server


@pytest.fixture
def env(sandbox: SandboxProcess, cache_dir: Path) -> dict[str, str]:
    """The org key, the sandbox's base URL and this test's own cache dir."""
    return {**sandbox.env(sandbox.credentials.org), "LEADCTL_CACHE_DIR": str(cache_dir)}


@pytest.fixture(scope="module")
def pulled(sandbox: SandboxProcess, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A cache dir holding the sandbox's contract, pulled once for the tests that only read it
    (in-process: test_leads_create_wait pulls with the installed leadctl)."""
    home = tmp_path_factory.mktemp("pulled")
    env = {
        **sandbox.env(sandbox.credentials.org),
        "LEADCTL_CACHE_DIR": str(home / "cache"),
        # A module fixture runs before the test's isolated_env: never the user's own dirs.
        "LEADCTL_CONFIG_DIR": str(home / "config"),
        "LEADCTL_DATA_DIR": str(home / "data"),
    }
    result = run_in_process(["contract", "pull"], env=env)
    assert result.exit_code == 0, result.stderr
    return env


def requests_since(sandbox: SandboxProcess, seq: int) -> list[dict[str, Any]]:
    return [entry for entry in sandbox.requests() if entry["seq"] > seq]


def last_seq(sandbox: SandboxProcess) -> int:
    entries = sandbox.requests()
    return entries[-1]["seq"] if entries else 0


def source_id(sandbox: SandboxProcess, name: str) -> str:
    return str(next(s["id"] for s in sandbox.info()["sources"] if s["name"] == name))


def test_the_sandbox_publishes_its_contract_without_a_credential(sandbox: SandboxProcess) -> None:
    response = httpx.get(sandbox.url("/openapi.json"), timeout=10)
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert paths["/sms"]["post"]["x-leadctl-assumed"] is True
    assert "/leads/{id}" in paths and "/tags/all" in paths


def test_pull_then_send_an_sms_and_read_it_back(
    sandbox: SandboxProcess, pulled: dict[str, str]
) -> None:
    shown = json.loads(run_in_process(["contract", "show", "-o", "json"], env=pulled).stdout)
    assert shown["source"] == sandbox.url("/openapi.json")
    assert (shown["operations"], shown["generated"]) == (27, 15)
    start = last_seq(sandbox)
    sent = run_leadctl(
        [
            "sms",
            "send",
            "--field",
            "to=+15125550143",
            "--field",
            "body=Your quote is ready",
            "--wait",
            "-o",
            "json",
        ],
        env=pulled,
    )
    assert sent.exit_code == 0, sent.stderr
    message = json.loads(sent.stdout)
    assert message["status"] == "Sent" and message["body"] == "Your quote is ready"
    log = requests_since(sandbox, start)
    assert log[0]["method"] == "POST" and log[0]["path"] == "/sms"
    assert log[0]["body"] == {"to": "+15125550143", "body": "Your quote is ready"}
    assert all(entry["path"] == f"/sms/{message['id']}" for entry in log[1:])
    again = run_in_process(
        ["sms", "get", message["id"], "-o", "value", "--columns", "status"], env=pulled
    )
    assert again.stdout == "Sent\n"


def test_schedule_then_cancel_twice_and_a_sent_message_cannot_be(
    pulled: dict[str, str],
) -> None:
    later = (datetime.now(timezone.utc) + timedelta(hours=2)).isoformat()
    scheduled = run_in_process(
        [
            "sms",
            "send",
            "--field",
            "to=+15125550143",
            "--field",
            "body=Tomorrow",
            "--field",
            f"sendAt={later}",
            "-o",
            "json",
            "--wait",
        ],
        env=pulled,
    )
    assert scheduled.exit_code == 0, scheduled.stderr
    message = json.loads(scheduled.stdout)
    assert message["status"] == "Scheduled"  # settled: --wait does not wait for sendAt
    for _ in range(2):
        cancelled = run_in_process(
            ["sms", "cancel", message["id"], "--yes", "-o", "json"], env=pulled
        )
        assert json.loads(cancelled.stdout)["status"] == "Cancelled"
    failed = run_leadctl(
        ["sms", "send", "--field", "to=+15125550000", "--field", "body=x", "--wait"], env=pulled
    )
    assert (failed.exit_code, failed.stdout) == (6, "")
    assert "ended Failed: the recipient is unreachable" in failed.stderr


def test_a_bad_body_is_exit_2_and_the_sandbox_receives_nothing(
    sandbox: SandboxProcess, pulled: dict[str, str]
) -> None:
    start = last_seq(sandbox)
    result = run_leadctl(
        ["sms", "send", "--field", "to=5125550143", "--field", "body="], env=pulled
    )
    typo = run_in_process(
        ["sms", "send", "--field", "to=+15125550143", "--field", "bdy=x"], env=pulled
    )
    assert result.exit_code == typo.exit_code == 2
    assert "nothing was sent" in result.stderr
    assert "  to: '5125550143' is in national format" in result.stderr
    assert "  body: " in result.stderr
    assert "--field 'bdy' is not a field of the request body" in typo.stderr
    assert requests_since(sandbox, start) == []


def test_a_generated_paged_list_follows_continuation_tokens(
    sandbox: SandboxProcess, pulled: dict[str, str]
) -> None:
    prefix = f"e2e-{uuid.uuid4().hex[:8]}"
    for index in range(3):
        created = run_in_process(
            ["tags", "create", "--field", f"name={prefix}-{index}", "--field", "color=#112233"],
            env=pulled,
        )
        assert created.exit_code == 0, created.stderr
    start = last_seq(sandbox)
    listed = run_leadctl(
        ["tags", "list", "--search", prefix, "--all", "--page-size", "2", "-o", "json"],
        env=pulled,
    )
    assert listed.exit_code == 0, listed.stderr
    assert [t["name"] for t in json.loads(listed.stdout)] == [f"{prefix}-{i}" for i in range(3)]
    pages = [e["body"] for e in requests_since(sandbox, start) if e["path"] == "/tags/all"]
    assert len(pages) == 2
    assert "continuationToken" not in pages[0]
    assert all(p["continuationToken"] and p["search"] == prefix for p in pages[1:])
    table = run_leadctl_tty(
        ["tags", "list", "--search", prefix, "--limit", "2"], env={**pulled, "NO_COLOR": "1"}
    )
    assert table.exit_code == 0, table.stderr
    assert table.stdout.splitlines()[0].split()[:2] == ["id", "name"]
    assert f"{prefix}-1" in table.stdout and f"{prefix}-2" not in table.stdout


def test_curated_groups_gain_generated_verbs(
    sandbox: SandboxProcess, pulled: dict[str, str]
) -> None:
    web = source_id(sandbox, "Website form")
    found = run_in_process(["sources", "get", web, "-o", "value", "--columns", "name"], env=pulled)
    assert found.stdout == "Website form\n"
    listed = run_in_process(["sources", "list", "--all", "-o", "json"], env=pulled)
    assert web in [s["id"] for s in json.loads(listed.stdout)]
    assert run_leadctl(["sources", "get", "no-such-source"], env=pulled).exit_code == 5


@pytest.mark.parametrize("contract", ["bundled", "pulled"])
def test_leads_create_wait(sandbox: SandboxProcess, env: dict[str, str], contract: str) -> None:
    # The bundled contract's run is the installed program's; the pulled one's commands run
    # in-process, after a real `contract pull`.
    run = run_leadctl if contract == "bundled" else run_in_process
    if contract == "pulled":
        assert run_leadctl(["contract", "pull"], env=env).exit_code == 0
    start = last_seq(sandbox)
    accepted = run(
        [
            "leads",
            "create",
            "--field",
            "phone=+15125550143",
            "--field",
            "state=TX",
            "--wait",
            "-o",
            "json",
        ],
        env=env,
    )
    assert accepted.exit_code == 0, accepted.stderr
    lead = json.loads(accepted.stdout)
    assert lead["processingStatus"] == "Accepted"
    polls = [
        e for e in requests_since(sandbox, start) if e["method"] != "POST" or e["path"] != "/leads"
    ]
    if contract == "pulled":
        assert {(e["method"], e["path"]) for e in polls} == {("GET", f"/leads/{lead['id']}")}
    else:
        assert {(e["method"], e["path"]) for e in polls} == {("POST", "/leads/all/my")}
        assert polls[0]["body"]["filters"] == [{"field": "id", "value": lead["id"]}]
    rejected = run(
        [
            "leads",
            "create",
            "--field",
            "phone=+15125550143",
            "--field",
            "state=OH",
            "--field",
            f"sourceId={source_id(sandbox, 'Solar Leads Marketplace')}",
            "--wait",
        ],
        env=env,
    )
    assert (rejected.exit_code, rejected.stdout) == (6, "")
    assert "ended Rejected: state 'OH' is not in the source's allowedStates" in rejected.stderr


def test_import_a_file_and_diff_against_the_bundled_contract(
    sandbox: SandboxProcess, env: dict[str, str], tmp_path: Path
) -> None:
    published = tmp_path / "published.json"
    published.write_bytes(httpx.get(sandbox.url("/openapi.json"), timeout=10).content)
    diff = run_in_process(["contract", "diff", str(published), "-o", "json"], env=env)
    assert diff.exit_code == 0, diff.stderr
    rows = json.loads(diff.stdout)
    added = {row["operation"]: row["command"] for row in rows if row["change"] == "added"}
    assert added["Sms_Send"] == "sms send" and len(added) == 15
    changed = [row for row in rows if row["change"] == "changed"]
    assert [(r["operation"], r["details"]) for r in changed] == [
        (
            "createLead",
            ["x-leadctl-pending: unset -> " + json.dumps(_pending(), separators=(",", ":"))],
        )
    ]
    imported = run_leadctl(["contract", "import", str(published)], env=env)
    assert imported.exit_code == 0, imported.stderr
    assert json.loads(imported.stdout)["source"] == str(published)
    back = run_in_process(["contract", "diff", str(CONTRACT_FILE), "-o", "json"], env=env)
    assert {row["change"] for row in json.loads(back.stdout)} == {"removed", "changed"}
    bad = tmp_path / "bad.json"
    bad.write_text('{"openapi": "3.1.0"}')
    refused = run_in_process(["contract", "import", str(bad)], env=env)
    assert refused.exit_code == 2 and "not a usable OpenAPI 3.1 contract" in refused.stderr


def _pending() -> dict[str, Any]:
    return {
        "field": "processingStatus",
        "pending": ["Pending"],
        "failed": ["Rejected"],
        "poll": "Leads_GetForCurrentUser",
        "reasonField": "processingError",
    }


def test_leads_get_wait_exits_with_the_leads_processing_outcome(
    sandbox: SandboxProcess, pulled: dict[str, str]
) -> None:
    # The sandbox's contract gives GET /leads/{id} an x-leadctl-pending of its own, so the
    # generated `leads get` has --wait: Rejected is exit 6, as `leads create --wait`.
    def created(*fields: str) -> str:
        args = ["leads", "create", "--field", "phone=+15125550143", "-o", "json"]
        result = run_in_process(
            [*args, *(f for name in fields for f in ("--field", name))], env=pulled
        )
        assert result.exit_code == 0, result.stderr
        return str(json.loads(result.stdout)["id"])

    accepted = created("state=TX")
    result = run_leadctl(["leads", "get", accepted, "--wait", "-o", "json"], env=pulled)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["processingStatus"] == "Accepted"

    marketplace = source_id(sandbox, "Solar Leads Marketplace")
    rejected = created("state=OH", f"sourceId={marketplace}")
    result = run_leadctl(["leads", "get", rejected, "--wait"], env=pulled)
    assert (result.exit_code, result.stdout) == (6, "")
    assert f"leads {rejected} ended Rejected: state 'OH'" in result.stderr
    assert run_leadctl(["leads", "get", rejected, "-o", "json"], env=pulled).exit_code == 0
