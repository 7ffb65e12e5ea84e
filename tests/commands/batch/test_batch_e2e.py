"""`leadctl batch` against the sandbox: a generated read by id, a write whose answer is lost
(reported unknown, never sent again, not even by --resume), and runs that overlap on one
report or are killed mid-way (each line sent once).

Each run whose outcome is tested is the installed leadctl's; pulling the contract a test
starts from, the list it takes ids from and the resumes after a lost answer or a killed run
run in-process (``run_in_process``: the same command tree, report lock and socket)."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support.e2e import base_env, leadctl_executable, run_leadctl
from tests.support.in_process import run_in_process
from tests.support.sandbox_fixtures import CredentialEnv
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def pulled_env(org_env: CredentialEnv, tmp_path: Path) -> dict[str, str]:
    """The org credential, with the sandbox's published contract pulled (its `leads get`
    and `tags create` are generated commands)."""
    env = {**org_env, "LEADCTL_CACHE_DIR": str(tmp_path / "cache")}
    pulled = run_in_process(["contract", "pull"], env=env)
    assert pulled.exit_code == 0, pulled.stderr
    return env


def outcomes(text: str) -> dict[int, dict[str, Any]]:
    return {line["row"]: line for line in map(json.loads, text.splitlines())}


def test_a_batch_of_reads_by_bare_id(pulled_env: dict[str, str], tmp_path: Path) -> None:
    listed = run_in_process(["leads", "list", "--limit", "3", "-o", "ndjson"], env=pulled_env)
    ids = [json.loads(line)["id"] for line in listed.stdout.splitlines()]
    source = tmp_path / "ids.txt"
    # Ids that read as JSON numbers are ids all the same: sent as written, found missing.
    unknown = ["no-such-lead", "1e3", "0012", "2e5255c3-0000-4000-8000-000000000000"]
    source.write_text("".join(f"{ident}\n" for ident in [*ids, *unknown]))

    # By METHOD and path: the verb's name depends on the contract's operationId.
    result = run_leadctl(["batch", "GET /leads/{id}", "--input", str(source)], env=pulled_env)

    assert result.exit_code == 6, result.stderr
    found = outcomes(result.stdout)
    assert [found[n]["outcome"] for n in range(1, 8)] == ["ok"] * 3 + ["rejected"] * 4
    assert [found[n]["result"]["id"] for n in (1, 2, 3)] == ids
    assert [(found[n]["status"], found[n]["params"]) for n in range(4, 8)] == [
        (404, {"id": ident}) for ident in unknown
    ]
    assert "7 lines sent" in result.stderr


def test_a_lost_answer_to_a_write_is_unknown_and_never_sent_again(
    sandbox: SandboxProcess, pulled_env: dict[str, str], tmp_path: Path
) -> None:
    mark = f"batch{uuid.uuid4().hex[:8]}"
    source = tmp_path / "tags.ndjson"
    source.write_text("".join(json.dumps({"name": f"{mark}-{n}"}) + "\n" for n in range(3)))
    report = tmp_path / "tags.report.ndjson"
    # The first tag is created, then its connection is closed before the answer.
    sandbox.add_fault("/tags", "drop-after", method="POST", count=1)

    first = run_leadctl(
        ["batch", "POST /tags", "--input", str(source), "--report", str(report)],
        env=pulled_env,
    )

    assert first.exit_code == 9, first.stderr
    found = outcomes(report.read_text())
    assert sorted(line["outcome"] for line in found.values()) == ["ok", "ok", "unknown"]

    def posts() -> int:
        return sum(
            1
            for entry in sandbox.requests()
            if entry["method"] == "POST" and entry["path"] == "/tags" and mark in str(entry["body"])
        )

    assert posts() == 3  # each line once: the lost one was not sent again

    again = run_in_process(
        ["batch", "POST /tags", "--input", str(source), "--resume", str(report)],
        env=pulled_env,
    )
    assert again.exit_code == 9, again.stderr  # still unknown: not done, not sent again
    assert "2 skipped" in again.stderr and "1 still unknown" in again.stderr
    assert posts() == 3


def _wait_for_a_line(report: Path, proc: subprocess.Popen[str]) -> None:
    """Until the running batch has recorded its first line (it then holds the report)."""
    waited = threading.Event()
    for _ in range(600):
        if report.exists() and report.read_text().strip():
            return
        assert proc.poll() is None, "the first run ended before it wrote anything"
        waited.wait(0.05)
    raise AssertionError("the first run wrote nothing in 30 s")


def test_two_runs_on_one_report_at_once_send_each_line_once(
    sandbox: SandboxProcess, pulled_env: dict[str, str], tmp_path: Path
) -> None:
    # Issue 22: two --resume runs on one report both sent every line (40 for 20 lines).
    mark = f"lock{uuid.uuid4().hex[:8]}"
    source = tmp_path / "tags.ndjson"
    source.write_text("".join(json.dumps({"name": f"{mark}-{n}"}) + "\n" for n in range(20)))
    report = tmp_path / "tags.report.ndjson"
    report.write_text("")
    args = ["batch", "POST /tags", "--input", str(source), "--resume", str(report)]
    first = subprocess.Popen(
        [leadctl_executable(), *args, "--rate", "10/1s"],  # two seconds of sending
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=base_env(pulled_env),
    )
    try:
        _wait_for_a_line(report, first)

        second = run_leadctl(args, env=pulled_env)

        _out, err = first.communicate(timeout=60)
    finally:
        first.kill()
    assert second.exit_code == 2
    assert f"the report {report} is in use by another leadctl run" in second.stderr
    assert first.returncode == 0, err
    sent = Counter(
        entry["body"]["name"]
        for entry in sandbox.requests()
        if entry["method"] == "POST" and entry["path"] == "/tags" and mark in str(entry["body"])
    )
    assert len(sent) == 20 and set(sent.values()) == {1}


def test_a_run_killed_mid_way_leaves_no_lock_and_resume_sends_nothing_twice(
    sandbox: SandboxProcess, pulled_env: dict[str, str], tmp_path: Path
) -> None:
    mark = f"kill{uuid.uuid4().hex[:8]}"
    source = tmp_path / "tags.ndjson"
    source.write_text("".join(json.dumps({"name": f"{mark}-{n}"}) + "\n" for n in range(20)))
    report = tmp_path / "tags.report.ndjson"
    args = ["batch", "POST /tags", "--input", str(source)]
    first = subprocess.Popen(
        [leadctl_executable(), *args, "--report", str(report), "--rate", "10/1s"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=base_env(pulled_env),
        text=True,
    )
    try:
        _wait_for_a_line(report, first)
        first.send_signal(signal.SIGKILL)  # no cleanup at all: the lock goes with it
        first.wait(timeout=30)
    finally:
        first.kill()

    resumed = run_in_process([*args, "--resume", str(report)], env=pulled_env)

    sent = Counter(
        entry["body"]["name"]
        for entry in sandbox.requests()
        if entry["method"] == "POST" and entry["path"] == "/tags" and mark in str(entry["body"])
    )
    assert set(sent.values()) == {1}  # nothing twice
    # A line the kill caught after its 'sending' line is unknown (exit 9), not sent again;
    # every other line was sent, once.
    latest = outcomes(report.read_text())
    caught = {row for row, line in latest.items() if line["outcome"] in ("sending", "unknown")}
    assert {f"{mark}-{row - 1}" for row in range(1, 21) if row not in caught} <= set(sent)
    assert resumed.exit_code == (9 if caught else 0), resumed.stderr
