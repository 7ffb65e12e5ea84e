"""``leadctl a2a call`` in process.

`leadctl a2a call`: the JSON-RPC envelope, result printing, JSON-RPC errors, bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.a2a._support import BAD_INPUT, PONG, URL, echo, sent_json
from tests.support.cli import ORG_KEY, run_cli, token_env


def test_sends_a_json_rpc_envelope_with_a_fresh_id(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_callback(echo(PONG), method="POST", url=URL)
    httpx_mock.add_callback(echo(PONG), method="POST", url=URL)
    first = run_cli(["a2a", "call", "agent.ping"], env=token_env())
    second = run_cli(["a2a", "call", "agent.ping"], env=token_env())
    assert first.exit_code == 0, first.stderr
    assert second.exit_code == 0, second.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.headers["Content-Type"] == "application/json"
    bodies = sent_json(httpx_mock)
    for body in bodies:
        assert set(body) == {"jsonrpc", "id", "method"}
        assert body["jsonrpc"] == "2.0"
        assert body["method"] == "agent.ping"
        assert re.fullmatch(r"[0-9a-f]{32}", body["id"])
    assert bodies[0]["id"] != bodies[1]["id"]
    assert json.loads(first.stdout) == PONG


@pytest.mark.parametrize(
    ("argv", "call_id", "params"),
    [
        (["--id", "7"], 7, None),
        (["--id", "-3"], -3, None),
        (["--id", "007"], "007", None),
        (["--id", "req-1"], "req-1", None),
        (["--params", '{"id": "lead_1"}'], None, {"id": "lead_1"}),
        (["--params", '["a", 1]'], None, ["a", 1]),
        (["--params", "{}"], None, {}),
    ],
)
def test_id_and_params(httpx_mock: HTTPXMock, argv: list[str], call_id: Any, params: Any) -> None:
    httpx_mock.add_callback(echo({"ok": 1}), method="POST", url=URL)
    result = run_cli(["a2a", "call", "leads.get", *argv], env=token_env())
    assert result.exit_code == 0, result.stderr
    body = sent_json(httpx_mock)[0]
    if call_id is not None:
        assert body["id"] == call_id
    if params is None:
        assert "params" not in body
    else:
        assert body["params"] == params


def test_params_from_a_file_and_from_stdin(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    query = tmp_path / "query.json"
    query.write_text('{"filters": [{"field": "state", "value": "TX"}]}', encoding="utf-8")
    httpx_mock.add_callback(echo({"items": []}), method="POST", url=URL)
    httpx_mock.add_callback(echo({"items": []}), method="POST", url=URL)
    assert (
        run_cli(
            ["a2a", "call", "leads.search", "--params", f"@{query}", "--id", "1"], env=token_env()
        ).exit_code
        == 0
    )
    assert (
        run_cli(
            ["a2a", "call", "leadStatusChanges.list", "--params", "-", "--id", "2"],
            env=token_env(),
            stdin='{"leadId": "lead_1"}',
        ).exit_code
        == 0
    )
    assert sent_json(httpx_mock) == [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "leads.search",
            "params": {"filters": [{"field": "state", "value": "TX"}]},
        },
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "leadStatusChanges.list",
            "params": {"leadId": "lead_1"},
        },
    ]


def test_a_list_result_prints_as_a_list(httpx_mock: HTTPXMock) -> None:
    changes = [{"id": "chg_1", "type": "Call"}, {"id": "chg_2", "type": "Sms"}]
    httpx_mock.add_callback(echo(changes), method="POST", url=URL)
    httpx_mock.add_callback(echo(changes), method="POST", url=URL)
    as_json = run_cli(["a2a", "call", "leadStatusChanges.list"], env=token_env())
    assert json.loads(as_json.stdout) == changes
    as_csv = run_cli(["a2a", "call", "leadStatusChanges.list", "-o", "csv"], env=token_env())
    assert as_csv.stdout == "id,type\nchg_1,Call\nchg_2,Sms\n"


def test_json_rpc_error_is_exit_6_with_code_message_and_data(httpx_mock: HTTPXMock) -> None:
    error = {"code": -32602, "message": "Invalid params", "data": {"id": "required"}}
    httpx_mock.add_callback(echo(error=error), method="POST", url=URL)
    result = run_cli(["a2a", "call", "leads.get"], env=token_env())
    assert result.exit_code == 6
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == "error: JSON-RPC error -32602: Invalid params"
    assert lines[1] == 'data: {"id":"required"}'


def test_json_rpc_error_as_json_when_asked(httpx_mock: HTTPXMock) -> None:
    error = {"code": -32601, "message": "Method not found"}
    httpx_mock.add_callback(echo(error=error), method="POST", url=URL)
    result = run_cli(["a2a", "call", "no.such", "-o", "json"], env=token_env())
    assert result.exit_code == 6
    assert result.stdout == ""
    problem = json.loads(result.stderr)
    assert problem["exitCode"] == 6
    assert problem["error"] == error
    assert problem["detail"] == "JSON-RPC error -32601: Method not found"


def test_error_with_a_null_id_is_still_the_calls_error(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=URL,
        json={"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}},
    )
    result = run_cli(["a2a", "call", "agent.ping"], env=token_env())
    assert result.exit_code == 6
    assert "JSON-RPC error -32700: Parse error" in result.stderr


@pytest.mark.parametrize(
    "answer",
    [
        {"jsonrpc": "2.0", "id": "someone-else", "result": PONG},
        {"jsonrpc": "2.0", "id": "7", "result": PONG},  # a string is not the number 7
        {"jsonrpc": "2.0", "id": "x", "error": {"code": 1, "message": "m"}},
        {"jsonrpc": "2.0", "id": 7},
        {"jsonrpc": "2.0", "id": 7, "error": "boom"},
        [{"jsonrpc": "2.0", "id": 7, "result": PONG}],
    ],
)
def test_a_malformed_or_foreign_answer_is_exit_8(httpx_mock: HTTPXMock, answer: Any) -> None:
    httpx_mock.add_response(method="POST", url=URL, json=answer)
    result = run_cli(["a2a", "call", "agent.ping", "--id", "7"], env=token_env())
    assert result.exit_code == 8, result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("argv", "message"), BAD_INPUT)
def test_bad_input_is_exit_2_and_sends_nothing(
    httpx_mock: HTTPXMock, argv: list[str], message: str
) -> None:
    result = run_cli(argv, env=token_env())
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_not_retried_once_sent(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=500)
    result = run_cli(["a2a", "call", "agent.ping"], env=token_env())
    assert result.exit_code == 9
    assert "check whether the agent operation took effect" in result.stderr
    assert len(httpx_mock.get_requests()) == 1


def test_forbidden_is_exit_4(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=403)
    result = run_cli(["a2a", "call", "agent.ping"], env=token_env())
    assert result.exit_code == 4
