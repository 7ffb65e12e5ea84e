"""`leads import` on the service's own contract (the trait fixture), with the installed
leadctl against the validating mock: every request valid, and issue 22's planted-bug test: a
resend of an import row to a create that takes an Idempotency-Key header carries the same
key, after a 503 in the run and on --resume after Ctrl-C (a real SIGINT while a 429 after
that 503 is waited out). `batch` on the same contract: tests/commands/batch/test_batch_contract.py.

The installed leadctl meets each guarantee on one variant (``leadctl``; Ctrl-C on both);
the run a resume follows up and the resume after Ctrl-C run in-process (``run_in_process``:
the same command tree and socket).
"""

from __future__ import annotations

import json
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner
from tests.support.e2e import base_env, leadctl_executable
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e

HEADER = (
    "metadata.consentCertificateUrl,contact.firstName,contact.lastName,contact.email,"
    "contact.phone.number,tagIds,tagNames\n"
)
WAIT = 30.0


def leads_csv(tmp_path: Path, count: int) -> Path:
    rows = [
        f"https://cert.example.com/c/{n},Ada{n},Lovelace,ada{n}@example.com,+1512555012{n},,web\n"
        for n in range(count)
    ]
    path = tmp_path / "leads.csv"
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    return path


def report_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def keys_of(mock: ContractMock) -> list[str | None]:
    return [r.headers.get("idempotency-key") for r in mock.requests_to("POST", "/leads")]


# -- the same key on every send ------------------------------------------------------------


def test_an_import_row_resent_after_a_503_carries_the_same_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    trait_mock.reply("POST", "/leads", status=503)
    report = tmp_path / "report.ndjson"

    result = leadctl(
        ["leads", "import", str(leads_csv(tmp_path, 1)), "--report", str(report)], env=trait_env
    )

    assert result.exit_code == 0, result.stderr
    assert trait_mock.violations() == []
    first, again = keys_of(trait_mock)
    assert first is not None and first == again
    assert {line["key"] for line in report_lines(report)} == {first}


def test_resume_sends_a_row_again_with_the_key_in_the_report(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path, leadctl: Runner
) -> None:
    leads = leads_csv(tmp_path, 1)
    report = tmp_path / "report.ndjson"
    trait_mock.reply("POST", "/leads", status=503)
    first = run_in_process(
        ["--max-retries", "0", "leads", "import", str(leads), "--report", str(report)],
        env=trait_env,
    )
    assert first.exit_code == 6, first.stderr  # given up, with its key in the report

    again = leadctl(["leads", "import", str(leads), "--resume", str(report)], env=trait_env)

    assert again.exit_code == 0, again.stderr
    assert trait_mock.violations() == []
    [key] = set(keys_of(trait_mock))
    assert len(keys_of(trait_mock)) == 2 and key is not None


def test_ctrl_c_while_a_429_after_a_503_is_waited_out_keeps_the_row_and_its_key(
    trait_mock: ContractMock, trait_env: CredentialEnv, tmp_path: Path
) -> None:
    leads = leads_csv(tmp_path, 1)
    report = tmp_path / "report.ndjson"
    trait_mock.reply("POST", "/leads", status=503)  # the service may have created it
    trait_mock.reply("POST", "/leads", status=429, headers={"Retry-After": "300"})
    refused = threading.Event()
    proc = subprocess.Popen(
        [leadctl_executable(), "leads", "import", str(leads), "--report", str(report)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=base_env(trait_env),
    )
    try:
        # The 429 has been answered once its request is recorded; leadctl now waits 300 s.
        for _ in range(int(WAIT / 0.05)):
            if len(trait_mock.requests_to("POST", "/leads")) == 2:
                refused.set()
                break
            refused.wait(0.05)
        assert refused.is_set(), "the 429 was never asked for"
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=WAIT)
    finally:
        proc.kill()
    assert proc.returncode == 9, err
    last = report_lines(report)[-1]
    [key] = set(keys_of(trait_mock))
    assert (last["row"], last["outcome"], last["key"]) == (1, "unknown", key)

    resumed = run_in_process(
        ["leads", "import", str(leads), "--resume", str(report)], env=trait_env
    )

    # The create takes a key: --resume sends the unknown row again, with that key.
    assert resumed.exit_code == 0, resumed.stderr
    assert keys_of(trait_mock) == [key, key, key]
    assert trait_mock.violations() == []
