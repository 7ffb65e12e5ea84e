"""``leadctl a2a``, what its verbs share.

`leadctl a2a call`: the JSON-RPC envelope, result printing, JSON-RPC errors, bad input."""

from __future__ import annotations

import json

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.a2a._support import PONG, URL, echo, sent_json
from tests.support.cli import run_cli, token_env


def test_result_on_a_terminal(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_callback(echo(PONG), method="POST", url=URL)
    result = run_cli(["--no-color", "a2a", "call", "agent.ping"], env=token_env(), tty=True)
    assert result.exit_code == 0, result.stderr
    assert "pong" in result.stdout and "credentialKind" in result.stdout
    assert "jsonrpc" not in result.stdout


def test_run_called_directly_sends_params_from_stdin_and_prints_the_result(
    httpx_mock: HTTPXMock,
) -> None:
    # The verb without Typer: Options as the wrapper would fill them, straight into run().
    from leadctl.commands.a2a.call import Options, run
    from tests.support.run_context import direct_context, stdout_of

    httpx_mock.add_callback(echo({"id": "lead_1"}), method="POST", url=URL)
    ctx = direct_context(output="json", stdin='{"id": "lead_1"}')
    run(Options("leads.get", params="-", call_id="42"), ctx)
    assert sent_json(httpx_mock) == [
        {"jsonrpc": "2.0", "id": 42, "method": "leads.get", "params": {"id": "lead_1"}}
    ]
    assert json.loads(stdout_of(ctx)) == {"id": "lead_1"}


def test_run_called_directly_raises_the_json_rpc_error(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.a2a.call import Options, run
    from leadctl.commands.a2a.jsonrpc import JsonRpcError
    from leadctl.errors import ExitCode
    from tests.support.run_context import direct_context

    error = {"code": -32601, "message": "Method not found"}
    httpx_mock.add_callback(echo(error=error), method="POST", url=URL)
    with pytest.raises(JsonRpcError) as raised:
        run(Options("agent.nope"), direct_context())
    assert raised.value.exit_code == ExitCode.REJECTED
    assert raised.value.error == error
