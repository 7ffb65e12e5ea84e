"""`leadctl leads list`: the installed CLI against the sandbox (`leads create`:
test_create_e2e.py beside this file).

Each guarantee meets the installed program (exit codes, stdout for a pipe, the terminal,
jq at the other end of a pipe); the reads a test compares against (counts, the whole list,
waiting for intake), logging in and a test's further commands run in-process
(``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.e2e import base_env, leadctl_executable, run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

JQ = "/usr/bin/jq"
Env = dict[str, str]


def plain(text: str) -> str:
    """Terminal output without its color escapes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def list_requests(sandbox: SandboxProcess) -> list[dict[str, Any]]:
    return [r for r in sandbox.requests() if r["operationId"] == "listMyLeads"]


# -- list -----------------------------------------------------------------------------


def test_all_as_ndjson_piped_into_jq(org_env: Env) -> None:
    count = run_in_process(["leads", "list", "--count"], env=org_env)
    assert count.exit_code == 0, count.stderr
    leadctl = subprocess.Popen(
        [leadctl_executable(), "leads", "list", "--all", "--page-size", "40", "-o", "ndjson"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=base_env(org_env),
    )
    assert leadctl.stdout is not None
    jq = subprocess.run(
        [JQ, "-s", "-c", "{n: length, ids: (map(.id) | unique | length), states: map(.state)}"],
        stdin=leadctl.stdout,
        capture_output=True,
        text=True,
        timeout=60,
    )
    leadctl.stdout.close()
    assert leadctl.wait(timeout=60) == 0
    assert jq.returncode == 0, jq.stderr
    summary = json.loads(jq.stdout)
    assert summary["n"] == summary["ids"] == int(count.stdout)
    assert summary["n"] > 200  # more than one page of the seeded data


def test_a_cron_export_of_one_page_says_so_in_its_log(org_env: Env, tmp_path: Path) -> None:
    """stdin closed, stdout and stderr files, no terminal anywhere: the one page written
    is named as one page in the log, in one line; -q silences it."""
    export, log = tmp_path / "leads.ndjson", tmp_path / "cron.log"
    for quiet in ([], ["-q"]):
        with export.open("w") as out, log.open("w") as err:
            code = subprocess.run(
                [leadctl_executable(), *quiet, "leads", "list", "-o", "ndjson"],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                env=base_env(org_env),
                timeout=60,
            ).returncode
        assert code == 0
        written = len(export.read_text().splitlines())
        assert 0 < written < 200  # one page of the 200+ seeded leads
        if quiet:
            assert log.read_text() == ""
        else:
            [line] = log.read_text().splitlines()
            assert line.startswith(f"wrote {written} items, one page; more exist: add --all")


def test_filtered_csv_export(org_env: Env) -> None:
    count = run_in_process(["leads", "list", "--filter", "state=TX", "--count"], env=org_env)
    exported = run_leadctl(
        ["leads", "list", "--filter", "state=TX", "--all", "-o", "csv", "--columns", "id,state"],
        env=org_env,
    )
    assert exported.exit_code == 0, exported.stderr
    rows = list(csv.reader(io.StringIO(exported.stdout)))
    assert rows[0] == ["id", "state"]
    assert len(rows) - 1 == int(count.stdout) > 0
    assert {state for _id, state in rows[1:]} == {"TX"}


def test_limit_across_pages_and_cursor_resume_have_no_gap_and_no_repeat(
    sandbox: SandboxProcess, org_env: Env
) -> None:
    query = ["leads", "list", "--filter", "state=TX", "--page-size", "5"]
    everything = run_in_process([*query, "--all", "-o", "value", "--columns", "id"], env=org_env)
    all_ids = everything.stdout.split()
    assert len(all_ids) > 12 and len(set(all_ids)) == len(all_ids)

    sandbox.clear_requests()
    limited = run_leadctl([*query, "--limit", "7", "-o", "value", "--columns", "id"], env=org_env)
    assert limited.stdout.split() == all_ids[:7]
    first, second = (r["body"] for r in list_requests(sandbox))
    assert first == {"filters": [{"field": "state", "value": "TX"}], "pageSize": 5}
    assert second == {**first, "continuationToken": second["continuationToken"]}

    # A person on a terminal reads ten, and the footer tells where the next page starts.
    shown = run_leadctl_tty([*query, "--limit", "10"], env=org_env)
    assert shown.exit_code == 0, shown.stderr
    lines = plain(shown.stdout).splitlines()
    header = lines[0].split()
    assert header[:6] == ["id", "firstName", "lastName", "phone", "state", "status"]
    # What a 120-column terminal has no room for is named, never cut.
    assert "createdAt" not in header and "createdAt" in shown.stderr
    assert all("TX" in line.split() for line in lines[1:] if line.strip())
    first_ten = [line.split()[0] for line in lines[1:] if line.strip()]
    cursor = re.search(r"--cursor (\S+)", shown.stderr)
    assert cursor is not None, shown.stderr
    rest = run_in_process(
        [*query, "--cursor", cursor.group(1), "--all", "-o", "value", "--columns", "id"],
        env=org_env,
    )
    assert rest.exit_code == 0, rest.stderr
    assert first_ten + rest.stdout.split() == all_ids


def test_ranges_and_order(org_env: Env) -> None:
    everything = run_in_process(
        ["leads", "list", "--filter", "state=CA", "--all", "-o", "ndjson"], env=org_env
    )
    stamps = sorted(lead["createdAt"] for lead in ndjson(everything.stdout))
    assert len(stamps) > 8
    low, high = stamps[2], stamps[-3]
    ranged = run_leadctl(
        [
            "leads",
            "list",
            "--filter",
            "state=CA",
            "--range",
            f"createdAt>={low}",
            "--range",
            f"createdAt<{high}",
            "--order-by",
            "createdAt",
            "--all",
            "-o",
            "ndjson",
        ],
        env=org_env,
    )
    assert ranged.exit_code == 0, ranged.stderr
    got = [lead["createdAt"] for lead in ndjson(ranged.stdout)]
    assert got == [stamp for stamp in stamps if low <= stamp < high]
    descending = run_in_process(
        ["leads", "list", "--filter", "state=CA", "--order-by", "-createdAt", "--limit", "3"],
        env=org_env,
    )
    assert [lead["createdAt"] for lead in json.loads(descending.stdout)] == stamps[::-1][:3]


# -- --jq and --columns on the real path ------------------------------------------------


def test_jq_with_ndjson_runs_on_each_item_and_with_all_and_limit(org_env: Env) -> None:
    each = run_leadctl(
        ["leads", "list", "--limit", "2", "-o", "ndjson", "--jq", ".id"], env=org_env
    )
    capped = run_in_process(["leads", "list", "--all", "--limit", "3", "--jq", ".id"], env=org_env)

    assert each.exit_code == 0, each.stderr
    assert capped.exit_code == 0, capped.stderr
    assert len(each.stdout.split()) == 2
    assert len(capped.stdout.split()) == 3
    assert all(re.fullmatch(r"[0-9a-f-]{36}", line) for line in capped.stdout.split())


def test_json_columns_keep_just_those_fields(org_env: Env) -> None:
    result = run_leadctl(
        ["leads", "list", "--limit", "2", "--columns", "id,status.name,tags[].name"], env=org_env
    )

    assert result.exit_code == 0, result.stderr
    for lead in json.loads(result.stdout):
        assert list(lead) == ["id", "status", "tags"]
        assert lead["status"] is None or list(lead["status"]) == ["name"]
        assert all(list(tag) == ["name"] for tag in lead["tags"] or [])


def test_an_unknown_json_column_is_exit_2_before_any_request(
    sandbox: SandboxProcess, org_env: Env
) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["leads", "list", "--columns", "id,nope"], env=org_env)

    assert result.exit_code == 2
    assert "unknown field in --columns: nope" in result.stderr
    assert list_requests(sandbox) == []
