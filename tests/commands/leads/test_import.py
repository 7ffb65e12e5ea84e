"""`leadctl leads import`: rows to POST /leads, outcomes, 429 pauses, resume, exit codes."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl.bulk.rows import digest_of
from leadctl.clock import Clock
from tests.support.cli import BASE_URL, VirtualClock, run_cli, token_env

URL = f"{BASE_URL}/leads"


def created(n: int) -> dict[str, Any]:
    return {"id": f"lead_{n}", "processingStatus": "Pending"}


def sent(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]


def all_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def report_lines(path: Path) -> list[dict[str, Any]]:
    """The outcome lines of a report (its write-ahead ``sending`` lines left out)."""
    found = [json.loads(line) for line in path.read_text().splitlines()]
    return [line for line in found if line["outcome"] != "sending"]


def by_row(path: Path) -> dict[int, dict[str, Any]]:
    return {line["row"]: line for line in report_lines(path)}


def import_cli(
    args: list[str], *, stdin: str = "", clock: Clock | None = None, tty: bool = False
) -> Any:
    return run_cli(["leads", "import", *args], env=token_env(), stdin=stdin, clock=clock, tty=tty)


def ndjson(*objects: Any) -> str:
    return "".join(json.dumps(item) + "\n" for item in objects)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- rows become requests -----------------------------------------------------------------


def test_csv_cells_are_strings_and_empty_cells_are_left_out(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(2))
    leads = write(
        tmp_path,
        "leads.csv",
        "firstName,lastName,phone,state,tags[],tags[]\n"
        'Ada,,+15125550143,00123,webinar,"spring, 2026"\n'
        "Grace,Hopper,,,,\n",
    )

    result = import_cli([str(leads), "--concurrency", "1"])

    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock) == [
        {
            "firstName": "Ada",
            "phone": "+15125550143",
            "state": "00123",
            "tags": ["webinar", "spring, 2026"],
        },
        {"firstName": "Grace", "lastName": "Hopper"},
    ]
    assert result.stdout == ""
    assert "2 created, 0 rejected, 0 invalid, 0 unknown" in result.stderr


def test_ndjson_from_stdin_keeps_json_types_and_phones_go_out_in_e164(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    lead = {"firstName": "Ada", "phone": "+1 (512) 555-0143", "tags": ["vip", "web"]}

    result = import_cli(["-"], stdin=ndjson(lead))

    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock) == [{**lead, "phone": "+15125550143"}]


def test_format_option_overrides_the_extension(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    leads = write(tmp_path, "leads.csv", ndjson({"email": "a@example.test"}))

    result = import_cli([str(leads), "--format", "ndjson"])

    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock) == [{"email": "a@example.test"}]


# -- bad rows -----------------------------------------------------------------------------


def test_bad_csv_rows_are_invalid_with_their_numbers_and_the_rest_is_sent(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    for n in range(2):
        httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(n))
    leads = write(
        tmp_path,
        "leads.csv",
        "firstName,phone\n"  # the header is not a row
        "Ada,+15125550143\n"  # row 1
        "Bob\n"  # row 2: one field
        "\n"  # row 3: empty line
        "Cy,12345\n"  # row 4: a national number and no region
        '"Dee\nDee",+15125550100\n',  # row 5: one record over two lines
    )
    report = tmp_path / "report.ndjson"

    result = import_cli([str(leads), "--report", str(report), "--concurrency", "1"])

    assert result.exit_code == 6
    rows = by_row(report)
    assert {n: rows[n]["outcome"] for n in rows} == {
        1: "created",
        2: "invalid",
        3: "invalid",
        4: "invalid",
        5: "created",
    }
    assert rows[2]["error"] == {"detail": "1 fields where the header has 2"}
    assert rows[3]["error"] == {"detail": "empty line"}
    assert "national format" in rows[4]["error"]["detail"]
    assert rows[1]["id"] == "lead_0"
    assert [body["firstName"] for body in sent(httpx_mock)] == ["Ada", "Dee\nDee"]
    assert "3 rows not created: 0 rejected, 3 invalid" in result.stderr


def test_bad_ndjson_rows_are_invalid_and_listed_on_stderr_without_a_report(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    text = '{"email": "a@example.test"}\n{"email": \n[1, 2]\n   \n{}\n'

    result = import_cli(["-"], stdin=text)

    assert result.exit_code == 6
    assert len(httpx_mock.get_requests()) == 1
    assert "row 2: invalid: invalid JSON: Expecting value at column 10" in result.stderr
    assert "row 3: invalid: not a JSON object but an array" in result.stderr
    assert "row 4: invalid: empty line" in result.stderr
    assert "row 5: invalid: no fields" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty: a CSV import needs a header row"),
        ("Ada,+15125550143\n", "the first row is not a header of field names"),
        ("phone,phone\n+15125550143,+15125550100\n", "names phone twice"),
        ("tags,tags[]\nx,y\n", "both 'tags' and 'tags[]'"),
    ],
)
def test_an_unusable_csv_header_is_exit_2_and_nothing_is_sent(
    httpx_mock: HTTPXMock, tmp_path: Path, text: str, message: str
) -> None:
    leads = write(tmp_path, "leads.csv", text)

    result = import_cli([str(leads)])

    assert result.exit_code == 2
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.csv"], "no such file"),
        (["-", "--retry-unknown"], "--retry-unknown only applies with --resume"),
        (["-", "--resume", "no-report.ndjson"], "no such report"),
        (["-", "--concurrency", "0"], "--concurrency"),
    ],
)
def test_usage_errors_are_exit_2_before_sending(
    httpx_mock: HTTPXMock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
    message: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)

    result = import_cli(args, stdin=ndjson({"email": "a@example.test"}))

    assert result.exit_code == 2
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_an_existing_report_is_not_mixed_with_a_new_import(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    report = write(tmp_path, "report.ndjson", '{"row":1,"outcome":"created"}\n')

    result = import_cli(["-", "--report", str(report)], stdin=ndjson({"email": "a@x.test"}))

    assert result.exit_code == 2
    assert f"go on with --resume {report}" in result.stderr
    assert httpx_mock.get_requests() == []


# -- answers ------------------------------------------------------------------------------


def test_a_rejected_row_carries_the_problem_and_exit_is_6(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    problem = {
        "title": "Bad Request",
        "status": 400,
        "detail": "The request failed validation.",
        "errors": {"email": ["is not an e-mail address"]},
        "traceId": "t-1",
    }
    httpx_mock.add_response(
        method="POST",
        url=URL,
        status_code=400,
        json=problem,
        headers={"Content-Type": "application/problem+json"},
    )
    report = tmp_path / "report.ndjson"

    result = import_cli(["-", "--report", str(report)], stdin=ndjson({"email": "nope"}))

    assert result.exit_code == 6
    [line] = report_lines(report)
    assert line == {
        "row": 1,
        "outcome": "rejected",
        "id": None,
        "error": problem,
        "digest": digest_of(b'{"email": "nope"}'),
    }
    assert "1 row not created: 1 rejected, 0 invalid" in result.stderr


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("timed out"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
    ],
)
def test_an_unanswered_row_is_unknown_sent_once_and_exit_9(
    httpx_mock: HTTPXMock, tmp_path: Path, failure: Exception
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    httpx_mock.add_exception(failure, method="POST", url=URL)
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(3))
    rows = ndjson({"email": "a@x.test"}, {"email": "b@x.test"}, {"email": "c@x.test"})
    report = tmp_path / "report.ndjson"

    result = import_cli(["-", "--report", str(report), "--concurrency", "1"], stdin=rows)

    assert result.exit_code == 9
    assert [body["email"] for body in sent(httpx_mock)] == ["a@x.test", "b@x.test", "c@x.test"]
    outcomes = by_row(report)
    assert outcomes[2]["outcome"] == "unknown"
    assert "may or may not have taken effect" in outcomes[2]["error"]["detail"]
    assert "1 row with an unknown outcome" in result.stderr


def test_a_5xx_is_unknown_and_wins_over_rejected_for_the_exit_code(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=503)
    httpx_mock.add_response(method="POST", url=URL, status_code=400, json={"title": "Bad"})

    result = import_cli(
        ["-", "--concurrency", "1"], stdin=ndjson({"email": "a@x.test"}, {"email": "b"})
    )

    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 2  # the 503 was not sent again


def test_ten_unknown_outcomes_in_a_row_stop_the_import(httpx_mock: HTTPXMock) -> None:
    for _ in range(10):
        httpx_mock.add_response(method="POST", url=URL, status_code=500)
    rows = ndjson(*({"email": f"{n}@x.test"} for n in range(15)))

    result = import_cli(["-", "--concurrency", "1"], stdin=rows)

    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 10
    assert "the service is failing" in result.stderr


def test_401_stops_the_import_after_the_first_request(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=401, json={"title": "No"})
    rows = ndjson(*({"email": f"{n}@x.test"} for n in range(20)))

    result = import_cli(["-", "--concurrency", "8"], stdin=rows)

    assert result.exit_code == 3
    assert len(httpx_mock.get_requests()) == 1


def test_an_unreachable_service_stops_the_import_and_the_row_is_unsent_for_resume(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    for _ in range(3):
        httpx_mock.add_exception(httpx.ConnectError("refused"), method="POST", url=URL)
    report = tmp_path / "report.ndjson"
    rows = ndjson({"email": "a@x.test"}, {"email": "b@x.test"})

    result = run_cli(
        ["--max-retries", "2", "leads", "import", "-", "--report", str(report)],
        env=token_env(),
        stdin=rows,
        clock=VirtualClock(),
    )

    assert result.exit_code == 8
    assert len(httpx_mock.get_requests()) == 3
    # Recorded before it was tried; then settled: it never reached the service.
    assert [line["outcome"] for line in all_lines(report)] == ["sending", "unsent"]
    assert f"--resume {report}" in result.stderr
    httpx_mock.reset()
    for n in (1, 2):
        httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(n))

    again = import_cli(["-", "--resume", str(report), "--concurrency", "1"], stdin=rows)

    assert again.exit_code == 0, again.stderr
    assert [body["email"] for body in sent(httpx_mock)] == ["a@x.test", "b@x.test"]


# -- 429 ----------------------------------------------------------------------------------


def test_a_429_pauses_for_exactly_retry_after_then_the_row_is_sent_again(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    httpx_mock.add_response(method="POST", url=URL, status_code=429, headers={"Retry-After": "3"})
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(2))
    clock = VirtualClock()

    result = import_cli(
        ["-", "--concurrency", "1"],
        stdin=ndjson({"email": "a@x.test"}, {"email": "b@x.test"}),
        clock=clock,
    )

    assert result.exit_code == 0, result.stderr
    assert [body["email"] for body in sent(httpx_mock)] == ["a@x.test", "b@x.test", "b@x.test"]
    assert sum(clock.sleeps) == pytest.approx(3.0)
    assert "rate limited 1 time," in result.stderr


def test_a_row_refused_by_429_for_an_hour_is_rejected_not_lost(httpx_mock: HTTPXMock) -> None:
    # Refused at 0 s, 1,800 s and 3,600 s: an hour of refusals gives the row up.
    for _ in range(3):
        httpx_mock.add_response(
            method="POST", url=URL, status_code=429, headers={"Retry-After": "1800"}
        )

    result = import_cli(["-"], stdin=ndjson({"email": "a@x.test"}), clock=VirtualClock())

    assert result.exit_code == 6
    assert len(httpx_mock.get_requests()) == 3
    assert "row 1: rejected: 429" in result.stderr


def test_never_more_requests_in_flight_than_concurrency(httpx_mock: HTTPXMock) -> None:
    lock = threading.Lock()
    in_flight = 0
    most = 0

    def answer(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.02)
        with lock:
            in_flight -= 1
        return httpx.Response(202, json=created(0))

    httpx_mock.add_callback(answer, method="POST", url=URL, is_reusable=True)
    rows = ndjson(*({"email": f"{n}@x.test"} for n in range(40)))

    result = import_cli(["-", "--concurrency", "3"], stdin=rows)

    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 40
    assert most == 3


# -- resume -------------------------------------------------------------------------------


def test_resume_skips_created_rows_and_unknown_rows_stay_unknown_exit_9(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    httpx_mock.add_response(method="POST", url=URL, status_code=500)
    httpx_mock.add_response(method="POST", url=URL, status_code=400, json={"title": "Bad"})
    leads = write(
        tmp_path,
        "leads.ndjson",
        ndjson({"email": "a@x.test"}, {"email": "b@x.test"}, {"email": "c@x.test"}),
    )
    report = tmp_path / "report.ndjson"
    first = import_cli([str(leads), "--report", str(report), "--concurrency", "1"])
    assert first.exit_code == 9
    httpx_mock.reset()
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(3))

    again = import_cli([str(leads), "--resume", str(report)])

    # Row 2 may have been created: it is not sent again, and it is not done either.
    assert again.exit_code == 9, again.stderr
    assert [body["email"] for body in sent(httpx_mock)] == ["c@x.test"]
    assert [(line["row"], line["outcome"]) for line in report_lines(report)] == [
        (1, "created"),
        (2, "unknown"),
        (3, "rejected"),
        (3, "created"),
    ]
    assert "0 unknown, 1 skipped (done in" in again.stderr
    assert "1 still unknown (in" in again.stderr
    assert "1 row with an unknown outcome from an earlier run" in again.stderr
    assert "until --retry-unknown" in again.stderr


def test_retry_unknown_sends_unknown_rows_again_but_never_created_ones(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    leads = write(tmp_path, "leads.ndjson", ndjson({"email": "a@x.test"}, {"email": "b@x.test"}))
    report = tmp_path / "report.ndjson"
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), method="POST", url=URL)
    assert import_cli([str(leads), "--report", str(report), "--concurrency", "1"]).exit_code == 9
    httpx_mock.reset()
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(2))

    again = import_cli([str(leads), "--resume", str(report), "--retry-unknown"])

    assert again.exit_code == 0, again.stderr
    assert [body["email"] for body in sent(httpx_mock)] == ["b@x.test"]


def test_resume_refuses_a_file_whose_skipped_rows_changed(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    leads = write(tmp_path, "leads.ndjson", ndjson({"email": "a@x.test"}, {"email": "b@x.test"}))
    report = tmp_path / "report.ndjson"
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(2))
    assert import_cli([str(leads), "--report", str(report), "--concurrency", "1"]).exit_code == 0
    httpx_mock.reset()
    # A row removed at the top shifts every row number: b would become row 1.
    leads.write_text(ndjson({"email": "b@x.test"}, {"email": "c@x.test"}))

    again = import_cli([str(leads), "--resume", str(report)])

    assert again.exit_code == 2
    assert "row 1 is not the row the report has as created" in again.stderr
    assert httpx_mock.get_requests() == []


def test_resume_ignores_a_partial_last_line(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    leads = write(tmp_path, "leads.ndjson", ndjson({"email": "a@x.test"}, {"email": "b@x.test"}))
    done = {"row": 1, "outcome": "created", "digest": digest_of(b'{"email": "a@x.test"}')}
    # Row 1's outcome, then a line cut short, as a crash in mid-write would leave it.
    report = write(tmp_path, "report.ndjson", json.dumps(done) + '\n{"row": 2, "outc')
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(2))

    again = import_cli([str(leads), "--resume", str(report)])

    assert again.exit_code == 0, again.stderr
    assert [body["email"] for body in sent(httpx_mock)] == ["b@x.test"]


# -- output -------------------------------------------------------------------------------


def test_report_dash_writes_outcomes_to_stdout(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))

    result = import_cli(["-", "--report", "-"], stdin=ndjson({"email": "a@x.test"}))

    assert result.exit_code == 0, result.stderr
    [line] = [json.loads(text) for text in result.stdout.splitlines()]
    assert (line["row"], line["outcome"], line["id"], line["error"]) == (
        1,
        "created",
        "lead_1",
        None,
    )


def test_a_progress_bar_only_on_a_terminal_and_not_with_quiet(httpx_mock: HTTPXMock) -> None:
    for _ in range(3):
        httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    rows = ndjson({"email": "a@x.test"})

    on_terminal = import_cli(["-"], stdin=rows, tty=True)
    piped = import_cli(["-"], stdin=rows)
    quiet = import_cli(["-", "-q"], stdin=rows, tty=True)

    assert on_terminal.exit_code == piped.exit_code == quiet.exit_code == 0
    assert "importing" in on_terminal.stderr
    assert "importing" not in piped.stderr
    assert "\x1b[" not in piped.stderr
    assert quiet.stderr == ""


def test_dry_run_prints_one_curl_per_valid_row_and_sends_nothing(
    httpx_mock: HTTPXMock,
) -> None:
    rows = ndjson({"email": "a@x.test"}, [1], {"email": "b@x.test"})

    result = run_cli(["--dry-run", "leads", "import", "-"], env=token_env(), stdin=rows)

    assert result.exit_code == 0
    assert result.stdout.count("curl ") == 2
    assert "row 2: invalid" in result.stderr
    assert httpx_mock.get_requests() == []


def test_the_client_keeps_retry_after_on_a_final_429(httpx_mock: HTTPXMock) -> None:
    from leadctl.config.credentials import Credential, CredentialKind
    from leadctl.contract.operations import bundled_operation
    from leadctl.errors import ApiError
    from leadctl.http.client import Client, RetryPolicy

    httpx_mock.add_response(method="POST", url=URL, status_code=429, headers={"Retry-After": "7"})
    credential = Credential("sk_test_x", CredentialKind.ORG, "test")
    client = Client(
        base_url=BASE_URL, credential=lambda: credential, policy=RetryPolicy(max_retries=0)
    )

    with pytest.raises(ApiError) as raised:
        client.call(bundled_operation("POST", "/leads"), json_body={"email": "a@x.test"})

    assert raised.value.status == 429
    assert raised.value.retry_after == 7.0


def test_ctrl_c_during_a_request_records_that_row_as_unknown(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    def interrupted(request: httpx.Request) -> httpx.Response:
        raise KeyboardInterrupt  # as if Ctrl-C came while the answer was awaited

    httpx_mock.add_callback(interrupted, method="POST", url=URL)
    report = tmp_path / "report.ndjson"

    result = import_cli(
        ["-", "--report", str(report)], stdin=ndjson({"email": "a@x.test"}, {"email": "b@x.test"})
    )

    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1
    [line] = report_lines(report)
    assert (line["row"], line["outcome"]) == (1, "unknown")
    assert line["error"] == {
        "detail": "interrupted before the service answered; "
        "POST /leads may or may not have taken effect"
    }
    assert "the import was interrupted" in result.stderr


# -- run(opts, ctx) directly -------------------------------------------------------------


def test_run_sends_each_row_reports_it_and_an_invalid_row_is_exit_6(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    from leadctl.bulk.engine import BulkIncomplete
    from leadctl.commands.leads import import_
    from tests.support.run_context import direct_context

    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(1))
    leads = write(tmp_path, "leads.ndjson", ndjson({"firstName": "Ada"}) + "not json\n")
    report = tmp_path / "report.ndjson"
    opts = import_.Options(file=str(leads), concurrency=1, report=str(report))

    with pytest.raises(BulkIncomplete) as raised:
        import_.run(opts, direct_context(clock=VirtualClock()))

    assert raised.value.exit_code == 6
    assert sent(httpx_mock) == [{"firstName": "Ada"}]
    outcomes = by_row(report)
    assert outcomes[1]["outcome"] == "created" and outcomes[1]["id"] == "lead_1"
    assert outcomes[2]["outcome"] == "invalid"


def test_the_services_cookies_are_not_kept_by_an_import_whose_operation_takes_none(
    httpx_mock: HTTPXMock,
) -> None:
    """Issue 32: reading every answer's Set-Cookie cost 7% of an import's CPU; POST /leads
    takes a bearer token, so a cookie the service sets is never sent back."""
    cookie = {"Set-Cookie": "session=abc; Path=/"}
    httpx_mock.add_response(
        method="POST", url=URL, status_code=202, json=created(1), headers=cookie
    )
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json=created(2))
    rows = ndjson({"firstName": "Ada"}, {"firstName": "Grace"})

    result = import_cli(["-", "--concurrency", "1"], stdin=rows)

    assert result.exit_code == 0, result.stderr
    assert [request.headers.get("Cookie") for request in httpx_mock.get_requests()] == [None, None]
