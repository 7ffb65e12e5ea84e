"""What the tests of ``a2a`` share."""

from __future__ import annotations

import json
from typing import Any

import httpx
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL

URL = f"{BASE_URL}/a2a"

PONG = {"pong": True, "organization": {"id": "org_1", "name": "Acme"}, "credentialKind": "org"}


def echo(result: Any = None, *, error: dict[str, Any] | None = None) -> Any:
    """A JSON-RPC server stub answering with the request's own id."""

    def respond(request: httpx.Request) -> httpx.Response:
        call = json.loads(request.content)
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": call["id"]}
        if error is not None:
            body["error"] = error
        else:
            body["result"] = result
        return httpx.Response(200, json=body)

    return respond


def sent_json(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]


BAD_INPUT = [
    (["a2a", "call", ""], "METHOD ''"),
    (["a2a", "call", " agent.ping"], "METHOD"),
    (["a2a", "call", "rpc.discover"], "reserved"),
    (["a2a", "call", "agent.ping", "--params", '"text"'], "object or array"),
    (["a2a", "call", "agent.ping", "--params", "null"], "object or array"),
    (["a2a", "call", "agent.ping", "--params", "42"], "object or array"),
    (["a2a", "call", "agent.ping", "--params", "{bad"], "--params: invalid JSON"),
    (["a2a", "call", "agent.ping", "--params", "@/nonexistent.json"], "cannot read"),
    (["a2a", "call", "agent.ping", "--id", ""], "--id must not be empty"),
    (["a2a", "call"], "METHOD"),
]
