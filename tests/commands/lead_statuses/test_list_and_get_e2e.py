"""`leadctl lead-statuses list`: the installed CLI against the sandbox.

Each output and refusal meets the installed program; the reads a test compares against
(the raw API answer, the organization's list, the list a lookup is checked with) and a
second form of a lookup run in-process (``run_in_process``: the same command tree and
socket)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

Env = dict[str, str]


def test_json_is_the_services_array_unchanged(org_env: Env) -> None:
    listed = run_leadctl(["lead-statuses", "list"], env=org_env)
    raw = run_in_process(["api", "GET", "/lead-statuses"], env=org_env)
    assert listed.exit_code == raw.exit_code == 0, listed.stderr + raw.stderr
    statuses = json.loads(listed.stdout)
    assert statuses == json.loads(raw.stdout)
    assert len(statuses) >= 5
    assert {"id", "name", "color", "category", "sortOrder", "isArchived"} <= set(statuses[0])


def test_csv_follows_the_display_order(org_env: Env) -> None:
    result = run_leadctl(
        ["lead-statuses", "list", "-o", "csv", "--columns", "name,sortOrder,category"],
        env=org_env,
    )
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    orders = [int(row["sortOrder"]) for row in rows]
    assert orders == sorted(orders)
    assert rows[0]["name"] == "New" and rows[0]["category"] == "Open"


def test_terminal_table_with_color_swatches(org_env: Env) -> None:
    piped = run_in_process(["lead-statuses", "list", "-o", "ndjson"], env=org_env)
    expected = sorted(
        (json.loads(line) for line in piped.stdout.splitlines()), key=lambda s: s["sortOrder"]
    )
    result = run_leadctl_tty(["lead-statuses", "list"], env=org_env)
    assert result.exit_code == 0, result.stderr
    # A swatch is a colored square in front of the color's own text.
    assert len(re.findall(r"\x1b\[[0-9;]+m■\x1b\[0m #[0-9a-f]{6}", result.stdout)) == len(expected)
    text = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)
    lines = text.splitlines()
    assert lines[0].split() == ["name", "color", "category", "sortOrder", "isArchived", "id"]
    assert [line.split()[-1] for line in lines[1:] if line.strip()] == [s["id"] for s in expected]

    uncolored = run_leadctl_tty(["--no-color", "lead-statuses", "list"], env=org_env)
    assert "\x1b[" not in uncolored.stdout
    assert "■" not in uncolored.stdout
    assert [line.split() for line in uncolored.stdout.splitlines()] == [
        line.replace("■", "").split() for line in lines if line.strip()
    ]


def test_a_source_key_is_refused_before_sending(sandbox: SandboxProcess, source_env: Env) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["lead-statuses", "list"], env=source_env)
    assert result.exit_code == 4
    assert result.stdout == ""
    assert sandbox.requests() == []


def test_a_token_of_no_recognised_kind_is_sent_and_the_sandbox_decides(
    sandbox: SandboxProcess, env_for: Callable[[str], Env]
) -> None:
    # The demo source key in LEADCTL_TOKEN: nothing says what it is (the bundled contract
    # names no source-key prefix), so it goes as a bearer credential, and the sandbox says no.
    sandbox.clear_requests()
    result = run_leadctl(["lead-statuses", "list"], env=env_for(sandbox.credentials.source))
    assert result.exit_code == 4
    assert result.stdout == ""
    assert [entry["status"] for entry in sandbox.requests()] == [403]


def test_a_user_token_reads_them_too(
    sandbox: SandboxProcess, env_for: Callable[[str], Env], org_env: Env
) -> None:
    as_user = run_leadctl(
        ["lead-statuses", "list"], env=env_for(sandbox.credentials.read_only_user)
    )
    as_org = run_in_process(["lead-statuses", "list"], env=org_env)
    assert as_user.exit_code == 0, as_user.stderr
    assert json.loads(as_user.stdout) == json.loads(as_org.stdout)


def test_get_finds_a_status_by_name_as_the_list_shows_it(org_env: Env) -> None:
    listed = json.loads(run_in_process(["lead-statuses", "list"], env=org_env).stdout)
    wanted = next(s for s in listed if s["name"] == "New")
    found = run_leadctl(["lead-statuses", "get", "new", "-o", "json"], env=org_env)
    assert found.exit_code == 0, found.stderr
    assert json.loads(found.stdout) == wanted
    as_value = run_in_process(
        ["lead-statuses", "get", "NEW", "-o", "value", "--columns", "id"], env=org_env
    )
    assert as_value.stdout == wanted["id"] + "\n"
