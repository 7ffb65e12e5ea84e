"""`leadctl batch OPERATION`: one request per input line, through the import's engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, VirtualClock, run_cli, token_env
from tests.support.payments import import_payments_contract

ROTATE = f"{BASE_URL}/sources/{{}}/credentials/rotate"
STATUS = f"{BASE_URL}/phone-numbers/%2B1512555010{{}}/status"


def batch(args: list[str], *, stdin: str = "") -> Any:
    return run_cli(["batch", *args], env=token_env(), stdin=stdin, clock=VirtualClock())


def lines(text: str) -> list[dict[str, Any]]:
    """The outcome lines of a report, by row (a file's write-ahead ``sending`` lines left
    out)."""
    found = (json.loads(line) for line in text.splitlines())
    return sorted((r for r in found if r["outcome"] != "sending"), key=lambda r: r["row"])


def test_answers_lost_for_a_non_retry_safe_operation_are_unknown_and_never_resent(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    # POST /sources/{id}/credentials/rotate is not retry-safe: a lost answer may be a
    # rotated key. Each line is sent once, whatever --max-retries allows.
    for source in ("src_1", "src_2"):
        httpx_mock.add_exception(httpx.ReadTimeout("lost"), url=ROTATE.format(source))
    report = tmp_path / "rotate.report.ndjson"
    result = batch(
        ["sources rotate", "--report", str(report), "--concurrency", "1", "--yes"],
        stdin="src_1\nsrc_2\n",
    )
    assert result.exit_code == 9, result.stderr
    assert len(httpx_mock.get_requests()) == 2
    outcomes = lines(report.read_text())
    assert [(r["row"], r["outcome"]) for r in outcomes] == [(1, "unknown"), (2, "unknown")]
    assert "may or may not have taken effect" in outcomes[0]["error"]["detail"]
    assert "2 lines with an unknown outcome" in result.stderr

    # --resume skips them: nothing is sent again (no response is registered for it).
    again = batch(["sources rotate", "--resume", str(report), "--yes"], stdin="src_1\nsrc_2\n")
    assert again.exit_code == 9, again.stderr  # they stay unknown until --retry-unknown
    assert len(httpx_mock.get_requests()) == 2
    assert "2 still unknown" in again.stderr


def test_a_lost_answer_for_a_retry_safe_operation_is_sent_again(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("lost"), url=STATUS.format(0))
    httpx_mock.add_response(url=STATUS.format(0), json={"phoneNumber": "+15125550100"})
    result = batch(["numbers status"], stdin="+15125550100\n")
    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 2
    [line] = lines(result.stdout)  # the report goes to stdout by default
    assert line["outcome"] == "ok"
    assert line["status"] == 200
    assert line["result"] == {"phoneNumber": "+15125550100"}


def test_bad_lines_are_reported_by_number_and_the_batch_goes_on(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS.format(1) + "?windowDays=3", json={"n": 1})
    httpx_mock.add_response(url=STATUS.format(5), json={"n": 5})
    stdin = (
        "{not json\n"  # 1: does not parse
        '{"phoneNumber": "+15125550101", "windowDays": 3}\n'  # 2: sent
        '{"windowDays": 3}\n'  # 3: the path parameter is missing
        '{"phoneNumber": "+15125550102", "colour": "red"}\n'  # 4: a field it does not take
        "+15125550105\n"  # 5: a bare id
    )
    result = batch(["numbers status"], stdin=stdin)
    assert result.exit_code == 6, result.stderr
    assert len(httpx_mock.get_requests()) == 2
    found = {r["row"]: r for r in lines(result.stdout)}
    assert [found[n]["outcome"] for n in range(1, 6)] == [
        "invalid", "ok", "invalid", "invalid", "ok",
    ]  # fmt: skip
    assert found[1]["error"]["detail"].startswith("invalid JSON")
    assert found[3]["error"]["detail"] == "missing phoneNumber"
    assert found[4]["error"]["detail"] == "the operation does not take colour"


def test_resume_sends_only_the_lines_not_done(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    ids = tmp_path / "numbers.txt"
    ids.write_text("+15125550100\n+15125550101\n+15125550102\n")
    report = tmp_path / "report.ndjson"
    httpx_mock.add_response(url=STATUS.format(0), json={"n": 0})
    httpx_mock.add_response(url=STATUS.format(1), status_code=400, json={"title": "Bad"})
    httpx_mock.add_response(url=STATUS.format(2), json={"n": 2})
    first = batch(
        ["numbers status", "--input", str(ids), "--report", str(report), "--concurrency", "1"]
    )
    assert first.exit_code == 6
    httpx_mock.add_response(url=STATUS.format(1), json={"n": 1})
    second = batch(["numbers status", "--input", str(ids), "--resume", str(report)])
    assert second.exit_code == 0, second.stderr
    sent = [str(r.url) for r in httpx_mock.get_requests()]
    assert sent.count(STATUS.format(1)) == 2
    assert sent.count(STATUS.format(0)) == 1 and sent.count(STATUS.format(2)) == 1
    assert [r["outcome"] for r in lines(report.read_text()) if r["row"] == 2] == [
        "rejected", "ok",
    ]  # fmt: skip


def test_resume_refuses_an_input_that_changed(tmp_path: Path) -> None:
    ids = tmp_path / "numbers.txt"
    ids.write_text("+15125550109\n")
    report = tmp_path / "report.ndjson"
    report.write_text(json.dumps({"row": 1, "outcome": "ok", "digest": "0000000000000000"}) + "\n")
    result = batch(["numbers status", "--input", str(ids), "--resume", str(report)])
    assert result.exit_code == 2
    assert "the input changed" in result.stderr


def test_an_unknown_operation_is_exit_2_with_did_you_mean() -> None:
    result = batch(["numbrs status"])
    assert result.exit_code == 2
    assert "did you mean 'numbers status'" in result.stderr


@pytest.mark.parametrize("concurrency", ["0", "33"])
def test_concurrency_outside_1_to_32_is_exit_2(concurrency: str) -> None:
    result = batch(["numbers status", "--concurrency", concurrency])
    assert result.exit_code == 2
    assert "--concurrency" in result.stderr


@pytest.mark.parametrize(
    "name", ["getPhoneNumberStatus", "get /phone-numbers/{phoneNumber}/status"]
)
def test_operations_are_named_by_operation_id_or_method_and_path(
    httpx_mock: HTTPXMock, name: str
) -> None:
    httpx_mock.add_response(url=STATUS.format(3), json={})
    result = batch([name], stdin='"+15125550103"\n')
    assert result.exit_code == 0, result.stderr


def test_a_keyed_operation_is_sent_again_with_the_same_key(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    import_payments_contract(tmp_path)
    url = f"{BASE_URL}/payments"
    httpx_mock.add_exception(httpx.ReadTimeout("lost"), url=url)
    httpx_mock.add_response(url=url, status_code=201, json={"id": "pay_1"})

    result = batch(["createPayment"], stdin='{"amount": 5}\n')

    assert result.exit_code == 0, result.stderr
    keys = [r.headers["Idempotency-Key"] for r in httpx_mock.get_requests()]
    assert len(keys) == 2 and keys[0] == keys[1]  # the lost one again, with its key
    [line] = lines(result.stdout)
    assert line["outcome"] == "ok" and line["key"] == keys[0]


def test_a_line_refused_for_an_hour_is_rejected(httpx_mock: HTTPXMock) -> None:
    # Refused at 0, 30 and 60 minutes: an hour after the first 429 the line is given up.
    for _ in range(3):
        httpx_mock.add_response(
            url=STATUS.format(0), status_code=429, headers={"Retry-After": "1800"}
        )
    result = batch(["numbers status"], stdin="+15125550100\n")
    assert len(httpx_mock.get_requests()) == 3
    [line] = lines(result.stdout)
    assert line["outcome"] == "rejected", result.stderr


def test_a_keyed_operation_the_profile_marks_unsafe_is_never_sent_again(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    # cli.md: retry_unsafe_operations overrides the key, as it does for the single command.
    import_payments_contract(tmp_path)
    assert run_cli(["profile", "set", "retry_unsafe_operations", "createPayment"]).exit_code == 0
    httpx_mock.add_exception(httpx.ReadTimeout("lost"), url=f"{BASE_URL}/payments")

    result = batch(["createPayment"], stdin='{"amount": 5}\n')

    assert result.exit_code == 9, result.stderr
    assert len(httpx_mock.get_requests()) == 1
    [line] = lines(result.stdout)
    assert line["outcome"] == "unknown" and line["key"]


def test_resume_sends_a_keyed_line_again_with_the_key_in_the_report(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    import_payments_contract(tmp_path)
    url = f"{BASE_URL}/payments"
    source = tmp_path / "payments.ndjson"
    source.write_text('{"amount": 5}\n')
    report = tmp_path / "payments.report.ndjson"
    httpx_mock.add_exception(httpx.ReadTimeout("lost"), url=url)
    first = run_cli(
        ["--max-retries", "0", "batch", "createPayment", "--input", str(source),
         "--report", str(report)],
        env=token_env(),
        clock=VirtualClock(),
    )  # fmt: skip
    assert first.exit_code == 6, first.stderr
    httpx_mock.add_response(url=url, status_code=201, json={"id": "pay_1"})
    again = batch(["createPayment", "--input", str(source), "--resume", str(report)])
    assert again.exit_code == 0, again.stderr
    keys = [r.headers["Idempotency-Key"] for r in httpx_mock.get_requests()]
    assert len(keys) == 2 and keys[0] == keys[1]


# -- run(opts, ctx) directly -------------------------------------------------------------


def test_run_sends_one_request_per_line_and_reports_to_stdout(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    from leadctl.cli.generated_tree import GeneratedTree
    from leadctl.commands.batch import batch as verb
    from leadctl.contract.store import bundled_index
    from tests.support.run_context import direct_context, stdout_of

    for n in (0, 1):
        httpx_mock.add_response(url=STATUS.format(n), json={"phoneNumber": f"+1512555010{n}"})
    numbers = tmp_path / "numbers.txt"
    numbers.write_text("+15125550100\n+15125550101\n")
    ctx = direct_context(clock=VirtualClock())
    opts = verb.Options(
        operation="numbers status", tree=GeneratedTree(bundled_index()), input=str(numbers)
    )

    verb.run(opts, ctx)

    assert len(httpx_mock.get_requests()) == 2
    report = lines(stdout_of(ctx))
    assert [(r["row"], r["outcome"], r["status"]) for r in report] == [
        (1, "ok", 200),
        (2, "ok", 200),
    ]
    assert report[1]["result"] == {"phoneNumber": "+15125550101"}


def test_run_refuses_an_unknown_operation_before_reading_input(httpx_mock: HTTPXMock) -> None:
    from leadctl.cli.generated_tree import GeneratedTree
    from leadctl.commands.batch import batch as verb
    from leadctl.contract.store import bundled_index
    from leadctl.errors import UsageError
    from tests.support.run_context import direct_context

    opts = verb.Options(operation="leads frobnicate", tree=GeneratedTree(bundled_index()))
    with pytest.raises(UsageError, match="unknown operation 'leads frobnicate'") as raised:
        verb.run(opts, direct_context(stdin="x\n"))
    assert raised.value.hint is not None and "leads list" in raised.value.hint
    assert httpx_mock.get_requests() == []


# Ids that happen to read as JSON numbers (or as NaN): each is text, sent as written. About
# one random UUID in 150 starts with digits, an `e` and more digits.
LOOKS_LIKE_A_NUMBER = ["2e5255c3-b87f-4b1c-9d2e-0c5f3a7e9b10", "1e3", "0012", "NaN", "12", "-0"]


def test_a_bare_id_is_text_whatever_it_looks_like(httpx_mock: HTTPXMock) -> None:
    for ident in LOOKS_LIKE_A_NUMBER:
        httpx_mock.add_response(url=f"{BASE_URL}/automations/{ident}/runs", json={"data": []})
    ids = "".join(f"{ident}\n" for ident in LOOKS_LIKE_A_NUMBER)
    result = batch(["GET /automations/{id}/runs"], stdin=ids)
    assert result.exit_code == 0, result.stdout + result.stderr
    sent = sorted(str(request.url) for request in httpx_mock.get_requests())
    assert sent == sorted(f"{BASE_URL}/automations/{ident}/runs" for ident in LOOKS_LIKE_A_NUMBER)
    assert [r["params"] for r in lines(result.stdout)] == [
        {"id": ident} for ident in LOOKS_LIKE_A_NUMBER
    ]


def test_a_line_written_as_json_is_read_as_json(httpx_mock: HTTPXMock) -> None:
    # A string as `jq` prints it without -r is that string; an array is never a request.
    httpx_mock.add_response(url=f"{BASE_URL}/automations/1e3/runs", json={"data": []})
    result = batch(["GET /automations/{id}/runs"], stdin='"1e3"\n[1, 2]\n{"id": 7\n')
    assert result.exit_code == 6, result.stderr
    found = {r["row"]: r for r in lines(result.stdout)}
    assert [found[n]["outcome"] for n in (1, 2, 3)] == ["ok", "invalid", "invalid"]
    assert found[2]["error"]["detail"].startswith("not a JSON object")
    assert found[3]["error"]["detail"].startswith("invalid JSON")
