"""`leadctl a2a call`: the installed CLI against the sandbox's JSON-RPC endpoint.

Each guarantee meets the installed program (exit codes 0, 2, 4 and 6 with stdout and stderr
apart, a terminal); the reads a test compares against and its further calls run in-process
(``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from leadctl.clock import Clock
from tests.support.cli import run_cli
from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

Env = dict[str, str]


def test_ping_prints_the_result_only(sandbox: SandboxProcess, org_env: Env) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["a2a", "call", "agent.ping"], env=org_env)
    assert result.exit_code == 0, result.stderr
    pong = json.loads(result.stdout)
    assert pong["pong"] is True
    assert pong["organization"]["name"] == sandbox.info()["organization"]["name"]
    assert pong["credentialKind"] == "org"
    [sent] = [r["body"] for r in sandbox.requests() if r["operationId"] == "a2a"]
    assert set(sent) == {"jsonrpc", "id", "method"}
    assert sent["jsonrpc"] == "2.0" and sent["method"] == "agent.ping"
    assert re.fullmatch(r"[0-9a-f]{32}", sent["id"])


def test_leads_get_and_search_match_leads_list(org_env: Env, tmp_path: Path) -> None:
    listed = run_in_process(
        ["leads", "list", "--filter", "state=TX", "--limit", "3", "-o", "json"], env=org_env
    )
    leads = json.loads(listed.stdout)
    got = run_leadctl(
        ["a2a", "call", "leads.get", "--params", json.dumps({"id": leads[0]["id"]}), "--id", "7"],
        env=org_env,
    )
    assert got.exit_code == 0, got.stderr
    lead = json.loads(got.stdout)
    assert {k: v for k, v in lead.items() if k != "statusChanges"} == leads[0]
    assert isinstance(lead["statusChanges"], list)

    query = tmp_path / "query.json"
    query.write_text(
        json.dumps({"filters": [{"field": "state", "value": "TX"}], "pageSize": 3}),
        encoding="utf-8",
    )
    searched = run_in_process(
        ["a2a", "call", "leads.search", "--params", f"@{query}", "--id", "search-1"], env=org_env
    )
    assert searched.exit_code == 0, searched.stderr
    assert json.loads(searched.stdout)["items"] == leads


def test_json_rpc_errors_are_exit_6(org_env: Env) -> None:
    unknown = run_leadctl(["a2a", "call", "no.such.method"], env=org_env)
    assert unknown.exit_code == 6
    assert unknown.stdout == ""
    assert unknown.stderr.splitlines()[0] == "error: JSON-RPC error -32601: Method not found"

    missing = run_in_process(
        ["a2a", "call", "leads.get", "--params", '{"id": "no-such-lead"}', "-o", "json"],
        env=org_env,
    )
    assert missing.exit_code == 6
    error = json.loads(missing.stderr)
    assert error["exitCode"] == 6
    assert error["error"]["code"] == -32004
    assert error["error"]["data"] == {"leadId": "no-such-lead"}


def test_terminal_shows_the_result_as_fields(org_env: Env) -> None:
    result = run_leadctl_tty(["a2a", "call", "agent.ping"], env=org_env)
    assert result.exit_code == 0, result.stderr
    rows = {
        field: value.strip()
        for field, _, value in (
            line.partition(" ")
            for line in re.sub(r"\x1b\[[0-9;]*m", "", result.stdout).splitlines()
        )
    }
    assert rows["pong"] == "yes"
    assert rows["credentialKind"] == "org"
    assert "jsonrpc" not in rows


def test_bad_input_and_source_keys_send_nothing(
    sandbox: SandboxProcess, org_env: Env, source_env: Env
) -> None:
    sandbox.clear_requests()
    bad = run_in_process(["a2a", "call", "leads.get", "--params", '"lead-1"'], env=org_env)
    assert bad.exit_code == 2
    assert "object or array" in bad.stderr
    refused = run_leadctl(["a2a", "call", "agent.ping"], env=source_env)
    assert refused.exit_code == 4
    assert bad.stdout == refused.stdout == ""
    assert sandbox.requests() == []


def test_a_table_shows_objects_as_readable_summaries_never_json(
    sandbox: SandboxProcess, org_env: Env
) -> None:
    # A terminal's rendering, in-process: test_terminal_shows_the_result_as_fields has the
    # installed program's pseudo-terminal.
    result = run_cli(
        ["a2a", "call", "agent.ping"], env={**org_env, "NO_COLOR": "1"}, tty=True, clock=Clock()
    )

    assert result.exit_code == 0, result.stderr
    rows = {
        line.split(None, 1)[0]: line.split(None, 1)[1].strip()
        for line in result.stdout.splitlines()
        if len(line.split(None, 1)) == 2
    }
    assert rows["organization"] == sandbox.info()["organization"]["name"]
    assert not any(value.startswith(("{", "[")) for value in rows.values())
