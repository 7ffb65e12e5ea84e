"""Issue 22 point 9: nothing doubled across interruptions and overlapping runs (`leads import`
and `batch`, in process, pytest-httpx for the service).

- The report records a line, with its idempotency key, before its first request leaves.
- Ctrl-C while a line waits to be sent again (a 429 after a 503 that may have acted)
  records it unknown with its key, and a resend repeats that key.
- A report another run is using is refused; a lock left by a killed run is not.
- Rows of unknown outcome stay unknown (exit 9) on --resume until --retry-unknown.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, VirtualClock, run_cli, token_env
from tests.support.imported_contracts import ImportedContracts
from tests.support.payments import import_payments_contract

LEADS = f"{BASE_URL}/leads"
PAYMENTS_URL = f"{BASE_URL}/payments"


@dataclass
class CtrlCClock(VirtualClock):
    """Virtual time; Ctrl-C (KeyboardInterrupt) comes during the first wait once armed, as
    a person pressing it while the run waits out a 429."""

    armed: bool = False
    fired: bool = False

    def sleep(self, seconds: float) -> None:
        if self.armed and not self.fired:
            self.fired = True
            raise KeyboardInterrupt
        super().sleep(seconds)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def ndjson(*objects: Any) -> str:
    return "".join(json.dumps(item) + "\n" for item in objects)


def keys_sent(httpx_mock: HTTPXMock) -> list[str]:
    return [r.headers["Idempotency-Key"] for r in httpx_mock.get_requests()]


# -- write-ahead -------------------------------------------------------------------------


def test_a_keyed_line_is_in_the_report_with_its_key_before_its_request_leaves(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    import_payments_contract(tmp_path)
    report = tmp_path / "payments.report.ndjson"
    seen_then: list[list[dict[str, Any]]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen_then.append(lines(report))  # what a crash at this instant would leave
        return httpx.Response(201, json={"id": "pay_1"})

    httpx_mock.add_callback(answer, url=PAYMENTS_URL)
    source = tmp_path / "payments.ndjson"
    source.write_text(ndjson({"amount": 5}))

    result = run_cli(
        ["batch", "createPayment", "--input", str(source), "--report", str(report)],
        env=token_env(),
        clock=VirtualClock(),
    )

    assert result.exit_code == 0, result.stderr
    [key] = keys_sent(httpx_mock)
    [before] = seen_then
    assert before == [
        {"row": 1, "outcome": "sending", "id": None, "error": None,
         "digest": before[0]["digest"], "key": key},
    ]  # fmt: skip
    assert [(line["outcome"], line["key"]) for line in lines(report)] == [
        ("sending", key),
        ("ok", key),
    ]


def test_an_import_row_is_in_the_report_before_its_request_leaves(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    report = tmp_path / "report.ndjson"
    seen_then: list[list[dict[str, Any]]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen_then.append([(line["row"], line["outcome"]) for line in lines(report)])
        return httpx.Response(202, json={"id": "lead_1"})

    httpx_mock.add_callback(answer, url=LEADS, is_reusable=True)

    result = run_cli(
        ["leads", "import", "-", "--report", str(report), "--concurrency", "1"],
        env=token_env(),
        stdin=ndjson({"email": "a@x.test"}, {"email": "b@x.test"}),
        clock=VirtualClock(),
    )

    assert result.exit_code == 0, result.stderr
    assert seen_then == [[(1, "sending")], [(1, "sending"), (1, "created"), (2, "sending")]]


def test_the_write_ahead_line_is_on_disk_first_only_where_a_resend_could_act_twice(
    httpx_mock: HTTPXMock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_1"})
    status = f"{BASE_URL}/phone-numbers/%2B15125550100/status"
    httpx_mock.add_response(url=status, json={"phoneNumber": "+15125550100"})

    created = run_cli(
        ["leads", "import", "-", "--report", str(tmp_path / "leads.ndjson")],
        env=token_env(),
        stdin=ndjson({"email": "a@x.test"}),
    )
    assert created.exit_code == 0, created.stderr
    assert len(synced) == 1  # POST /leads is not retry-safe: on disk before it goes
    read = run_cli(
        ["batch", "numbers status", "--report", str(tmp_path / "reads.ndjson")],
        env=token_env(),
        stdin="+15125550100\n",
    )
    assert read.exit_code == 0, read.stderr
    assert len(synced) == 1  # a read may be sent again: no flush to disk


def test_stdout_as_the_report_gets_outcomes_only(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_1"})

    result = run_cli(
        ["leads", "import", "-", "--report", "-"],
        env=token_env(),
        stdin=ndjson({"email": "a@x.test"}),
    )

    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["outcome"] for line in result.stdout.splitlines()] == ["created"]


# -- interrupted while waiting to be sent again -------------------------------------------


def test_ctrl_c_during_a_429_wait_after_a_503_leaves_the_line_unknown_with_its_key(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    import_payments_contract(tmp_path)
    clock = CtrlCClock()

    def refused(request: httpx.Request) -> httpx.Response:
        clock.armed = True  # Ctrl-C comes while this 429 is waited out
        return httpx.Response(429, headers={"Retry-After": "30"})

    httpx_mock.add_response(url=PAYMENTS_URL, status_code=503)  # may have acted
    httpx_mock.add_callback(refused, url=PAYMENTS_URL)
    source = tmp_path / "payments.ndjson"
    source.write_text(ndjson({"amount": 5}))
    report = tmp_path / "payments.report.ndjson"

    first = run_cli(
        ["batch", "createPayment", "--input", str(source), "--report", str(report)],
        env=token_env(),
        clock=clock,
    )

    assert first.exit_code == 9, first.stderr
    key, again_key = keys_sent(httpx_mock)
    assert key == again_key
    outcome = lines(report)[-1]
    assert (outcome["row"], outcome["outcome"], outcome["key"]) == (1, "unknown", key)
    assert "interrupted while waiting to be sent again" in outcome["error"]["detail"]
    assert "the batch was interrupted" in first.stderr

    httpx_mock.add_response(url=PAYMENTS_URL, status_code=201, json={"id": "pay_1"})
    resumed = run_cli(
        ["batch", "createPayment", "--input", str(source), "--resume", str(report)],
        env=token_env(),
        clock=VirtualClock(),
    )

    # The operation takes a key: --resume sends the unknown line again, with that key.
    assert resumed.exit_code == 0, resumed.stderr
    assert keys_sent(httpx_mock) == [key, key, key]


@dataclass
class UntilReported(VirtualClock):
    """Virtual time in which the thread that sent ``held_by``'s line waits, before its resend,
    until ``report`` has an outcome for ``row``: a line waiting to be sent again is still
    waiting when another line stops the run. Every other wait (another worker's, the pace
    shared by all) passes at once, so the line that stops the run is never held up by it."""

    report: Path = Path()
    row: int = 0
    held_by: set[int] = field(default_factory=set)  # thread idents

    def sleep(self, seconds: float) -> None:
        import threading

        if threading.get_ident() in self.held_by:
            # Waits on the condition (the row's outcome on disk), not for a time; the cap
            # only keeps a broken run from hanging the suite.
            waited = threading.Event()
            for _ in range(6000):
                if any(
                    line["row"] == self.row and line["outcome"] != "sending"
                    for line in lines(self.report)
                ):
                    break
                waited.wait(0.01)
        super().sleep(seconds)


def test_a_line_waiting_to_be_sent_again_when_the_run_stops_is_recorded_with_its_key(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    import threading

    import_payments_contract(tmp_path)
    report = tmp_path / "payments.report.ndjson"
    clock = UntilReported(report=report, row=3)

    def unavailable(request: httpx.Request) -> httpx.Response:
        clock.held_by.add(threading.get_ident())  # this worker waits to send line 2 again
        return httpx.Response(503)

    httpx_mock.add_response(url=PAYMENTS_URL, match_json={"amount": 1}, status_code=201)
    httpx_mock.add_callback(unavailable, url=PAYMENTS_URL, match_json={"amount": 2})
    httpx_mock.add_response(url=PAYMENTS_URL, match_json={"amount": 3}, status_code=401)
    source = tmp_path / "payments.ndjson"
    source.write_text(ndjson({"amount": 1}, {"amount": 2}, {"amount": 3}))

    result = run_cli(
        ["batch", "createPayment", "--input", str(source), "--report", str(report),
         "--concurrency", "2"],
        env=token_env(),
        clock=clock,
    )  # fmt: skip

    # Line 3's 401 stopped the run; line 2 may have acted, and that decides the exit code.
    assert result.exit_code == 9, result.stderr
    assert "the batch stopped early: 401" in result.stderr
    key = next(r.headers["Idempotency-Key"] for r in httpx_mock.get_requests()
               if json.loads(r.content) == {"amount": 2})  # fmt: skip
    settled = [line for line in lines(report) if line["row"] == 2]
    assert [(line["outcome"], line["key"]) for line in settled] == [
        ("sending", key),
        ("unknown", key),  # its 503 may have acted: unknown, never silently dropped
    ]
    assert "the run stopped before it was sent again" in settled[1]["error"]["detail"]


def test_ctrl_c_during_a_429_wait_leaves_an_import_row_unsent_and_resume_sends_it(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    clock = CtrlCClock()

    def refused(request: httpx.Request) -> httpx.Response:
        clock.armed = True
        return httpx.Response(429, headers={"Retry-After": "30"})

    httpx_mock.add_callback(refused, url=LEADS)
    report = tmp_path / "report.ndjson"
    rows = ndjson({"email": "a@x.test"})

    first = run_cli(
        ["leads", "import", "-", "--report", str(report)],
        env=token_env(),
        stdin=rows,
        clock=clock,
    )

    # Only refused: the service did not act, so the row is not unknown but unsent.
    assert first.exit_code == 130, first.stderr
    assert [line["outcome"] for line in lines(report)] == ["sending", "unsent"]
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_1"})

    again = run_cli(
        ["leads", "import", "-", "--resume", str(report)],
        env=token_env(),
        stdin=rows,
        clock=VirtualClock(),
    )

    assert again.exit_code == 0, again.stderr
    assert len(httpx_mock.get_requests()) == 2


def test_a_crash_after_the_write_ahead_line_is_unknown_on_resume(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    leads = tmp_path / "leads.ndjson"
    leads.write_text(ndjson({"email": "a@x.test"}, {"email": "b@x.test"}))
    from leadctl.bulk.rows import digest_of

    digest = digest_of(b'{"email": "a@x.test"}')
    report = tmp_path / "report.ndjson"
    # What a run killed while row 1 was out leaves.
    report.write_text(json.dumps({"row": 1, "outcome": "sending", "digest": digest}) + "\n")
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_2"})

    again = run_cli(["leads", "import", str(leads), "--resume", str(report)], env=token_env())

    assert again.exit_code == 9, again.stderr
    assert [json.loads(r.content)["email"] for r in httpx_mock.get_requests()] == ["b@x.test"]
    assert "1 still unknown" in again.stderr


def test_retry_unknown_resolves_rows_kept_unknown(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    leads = tmp_path / "leads.ndjson"
    leads.write_text(ndjson({"email": "a@x.test"}))
    report = tmp_path / "report.ndjson"
    httpx_mock.add_exception(httpx.ReadTimeout("lost"), url=LEADS)
    first = run_cli(["leads", "import", str(leads), "--report", str(report)], env=token_env())
    assert first.exit_code == 9, first.stderr
    resumed = run_cli(["leads", "import", str(leads), "--resume", str(report)], env=token_env())
    assert resumed.exit_code == 9
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_1"})

    resolved = run_cli(
        ["leads", "import", str(leads), "--resume", str(report), "--retry-unknown"],
        env=token_env(),
    )

    assert resolved.exit_code == 0, resolved.stderr
    settled = run_cli(["leads", "import", str(leads), "--resume", str(report)], env=token_env())
    assert settled.exit_code == 0, settled.stderr  # created now: nothing left unknown
    assert "1 skipped" in settled.stderr


# -- one run per report --------------------------------------------------------------------


def test_a_report_in_use_by_another_run_is_refused_and_nothing_is_sent(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    from filelock import FileLock

    report = tmp_path / "report.ndjson"
    other_run = FileLock(str(tmp_path / "report.ndjson.lock"))

    with other_run:
        result = run_cli(
            ["leads", "import", "-", "--report", str(report)],
            env=token_env(),
            stdin=ndjson({"email": "a@x.test"}),
        )

    assert result.exit_code == 2
    assert f"the report {report} is in use by another leadctl run" in result.stderr
    assert httpx_mock.get_requests() == []


def test_batch_refuses_a_resume_report_in_use(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    from filelock import FileLock

    report = tmp_path / "r.ndjson"
    report.write_text("")
    with FileLock(str(tmp_path / "r.ndjson.lock")):
        result = run_cli(
            ["batch", "numbers status", "--resume", str(report), "--report", "-"],
            env=token_env(),
            stdin="+15125550100\n",
        )
    assert result.exit_code == 2
    assert "in use by another leadctl run" in result.stderr
    assert httpx_mock.get_requests() == []


@pytest.fixture
def killed_lock_holder(tmp_path: Path) -> Iterator[Path]:
    """A report whose lock a process took and then died holding (SIGKILL: no cleanup)."""
    lock = tmp_path / "report.ndjson.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from filelock import FileLock; l = FileLock(sys.argv[1]); l.acquire(); "
         "print('held', flush=True); sys.stdin.read()", str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert lock.exists()
    yield tmp_path / "report.ndjson"


def test_a_lock_left_by_a_killed_run_does_not_block(
    httpx_mock: HTTPXMock, killed_lock_holder: Path
) -> None:
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_1"})

    result = run_cli(
        ["leads", "import", "-", "--report", str(killed_lock_holder)],
        env=token_env(),
        stdin=ndjson({"email": "a@x.test"}),
    )

    assert result.exit_code == 0, result.stderr


def test_a_dry_run_may_read_a_report_in_use(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    from filelock import FileLock

    report = tmp_path / "report.ndjson"
    report.write_text("")
    with FileLock(str(tmp_path / "report.ndjson.lock")):
        result = run_cli(
            ["--dry-run", "leads", "import", "-", "--resume", str(report)],
            env=token_env(),
            stdin=ndjson({"email": "a@x.test"}),
        )
    assert result.exit_code == 0, result.stderr
    assert "curl " in result.stdout


# -- the report file ---------------------------------------------------------------------


def test_a_partial_last_line_left_by_a_crash_does_not_swallow_the_next_one(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    from leadctl.bulk.rows import digest_of

    leads = tmp_path / "leads.ndjson"
    leads.write_text(ndjson({"email": "a@x.test"}, {"email": "b@x.test"}))
    done = {"row": 1, "outcome": "created", "digest": digest_of(b'{"email": "a@x.test"}')}
    report = tmp_path / "report.ndjson"
    report.write_text(json.dumps(done) + '\n{"row": 2, "outc')
    httpx_mock.add_response(url=LEADS, status_code=202, json={"id": "lead_2"})

    first = run_cli(["leads", "import", str(leads), "--resume", str(report)], env=token_env())

    assert first.exit_code == 0, first.stderr
    written = report.read_text().splitlines()
    assert written[1] == '{"row": 2, "outc'  # ended where the crash left it
    assert [json.loads(line)["outcome"] for line in written[2:]] == ["sending", "created"]
    again = run_cli(["leads", "import", str(leads), "--resume", str(report)], env=token_env())
    assert again.exit_code == 0, again.stderr
    assert "2 skipped" in again.stderr
    assert len(httpx_mock.get_requests()) == 1


def test_report_lines_carry_the_line_number_and_its_path_parameters(
    httpx_mock: HTTPXMock,
) -> None:
    url = f"{BASE_URL}/lead-status-changes/{{}}"
    httpx_mock.add_response(method="DELETE", url=url.format("chg_1"), status_code=204)
    httpx_mock.add_response(method="DELETE", url=url.format("chg_2"), status_code=404)

    result = run_cli(
        ["batch", "status-changes delete", "--yes", "--concurrency", "1"],
        env=token_env(),
        stdin="chg_1\nchg_2\n",
    )

    assert result.exit_code == 6, result.stderr
    found = [json.loads(line) for line in result.stdout.splitlines()]
    # The answer has no id after a DELETE: the line is known by its parameters.
    assert [(r["row"], r["params"], r["id"], r["outcome"]) for r in found] == [
        (1, {"id": "chg_1"}, None, "ok"),
        (2, {"id": "chg_2"}, None, "rejected"),
    ]


# -- a create that takes an Idempotency-Key (the service's own contract) -----------------

TRAITS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts" / "traits-3.1.json"
LEAD = {
    "metadata": {"consentCertificateUrl": "https://cert.example.com/c/1"},
    "contact": {
        "firstName": "Ada",
        "lastName": "Lovelace",
        "email": "ada@example.com",
        "phone": {"number": "+15125550123"},
    },
    "customer": {},
    "tagIds": [],
    "tagNames": ["web"],
}


@pytest.fixture
def keyed_create(imported_contracts: ImportedContracts) -> None:
    """The service's own contract is active: its POST /leads takes an Idempotency-Key."""
    # As `contract import` leaves it for token_env()'s service, imported once per session.
    imported_contracts.install(TRAITS, BASE_URL)


@pytest.mark.usefixtures("keyed_create")
def test_an_import_row_is_sent_again_after_a_503_with_the_same_key(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(url=LEADS, status_code=503)
    httpx_mock.add_response(url=LEADS, status_code=201, json={"id": "lead_1"})
    report = tmp_path / "report.ndjson"

    result = run_cli(
        ["leads", "import", "-", "--report", str(report)],
        env=token_env(),
        stdin=ndjson(LEAD),
        clock=VirtualClock(),
    )

    assert result.exit_code == 0, result.stderr
    first, again = keys_sent(httpx_mock)
    assert first == again
    assert [line["key"] for line in lines(report)] == [first, first]  # sending, created


@pytest.mark.usefixtures("keyed_create")
def test_an_interrupted_import_row_goes_again_on_resume_with_its_key(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    clock = CtrlCClock()

    def refused(request: httpx.Request) -> httpx.Response:
        clock.armed = True
        return httpx.Response(429, headers={"Retry-After": "30"})

    httpx_mock.add_response(url=LEADS, status_code=503)  # the service may have created it
    httpx_mock.add_callback(refused, url=LEADS)
    report = tmp_path / "report.ndjson"

    first = run_cli(
        ["leads", "import", "-", "--report", str(report)],
        env=token_env(),
        stdin=ndjson(LEAD),
        clock=clock,
    )

    assert first.exit_code == 9, first.stderr
    [key] = set(keys_sent(httpx_mock))
    assert (lines(report)[-1]["outcome"], lines(report)[-1]["key"]) == ("unknown", key)
    httpx_mock.add_response(url=LEADS, status_code=201, json={"id": "lead_1"})

    resumed = run_cli(
        ["leads", "import", "-", "--resume", str(report)],
        env=token_env(),
        stdin=ndjson(LEAD),
        clock=VirtualClock(),
    )

    # The key makes a resend harmless: --resume sends the unknown row, with its key.
    assert resumed.exit_code == 0, resumed.stderr
    assert keys_sent(httpx_mock) == [key, key, key]
