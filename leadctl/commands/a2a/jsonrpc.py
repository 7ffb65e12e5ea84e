"""The JSON-RPC 2.0 envelope of ``a2a call``: the request id, the request, reading the answer."""

from __future__ import annotations

import re
from typing import Any

from leadctl.errors import BadResponse, ExitCode, LeadctlError, UsageError
from leadctl.output.json_out import COMPACT_JSON

_INTEGER_ID = re.compile(r"^-?(0|[1-9][0-9]{0,17})$")


class JsonRpcError(LeadctlError):
    """The service answered the call with a JSON-RPC error object: it was rejected."""

    exit_code = ExitCode.REJECTED

    def __init__(self, error: dict[str, Any]) -> None:
        self.error = error
        code = error.get("code")
        message = error.get("message")
        super().__init__(f"JSON-RPC error {code}: {message}")

    def detail_lines(self) -> list[str]:
        if "data" not in self.error:
            return super().detail_lines()

        return [f"data: {COMPACT_JSON.encode(self.error['data'])}", *super().detail_lines()]

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["error"] = self.error
        return body


def request_id(raw: str | None) -> str | int:
    """The --id as sent: digits as a JSON number, anything else as a string; a fresh
    random string when not given."""
    if raw is None:
        import uuid

        return uuid.uuid4().hex
    if not raw.strip():
        raise UsageError("--id must not be empty")
    return int(raw) if _INTEGER_ID.match(raw) else raw


def envelope(
    method: str, params: dict[str, Any] | list[Any] | None, call_id: str | int
) -> dict[str, Any]:
    if not method.strip() or method != method.strip():
        raise UsageError(f"METHOD {method!r}: expected a method name such as agent.ping")
    if method.startswith("rpc."):
        raise UsageError(f"METHOD {method!r}: names starting with 'rpc.' are reserved")
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": call_id, "method": method}
    if params is not None:
        body["params"] = params
    return body


def result_of(response: Any, call_id: str | int) -> Any:
    """The call's result; a JSON-RPC error raises (exit 6), a malformed answer exit 8."""
    if not isinstance(response, dict):
        raise BadResponse(
            f"POST /a2a answered with {type(response).__name__}, not a JSON-RPC response"
        )
    error = response.get("error")
    answered_id = response.get("id")
    if error is not None:
        if not isinstance(error, dict) or "code" not in error:
            raise BadResponse("POST /a2a answered with a malformed JSON-RPC error")
        # A request the service could not read at all is answered with id null.
        if answered_id is not None and not _same_id(answered_id, call_id):
            raise _id_mismatch(answered_id, call_id)
        raise JsonRpcError(error)
    if not _same_id(answered_id, call_id):
        raise _id_mismatch(answered_id, call_id)
    if "result" not in response:
        raise BadResponse("POST /a2a answered with neither result nor error")
    return response["result"]


def _same_id(answered: Any, sent: str | int) -> bool:
    return type(answered) is type(sent) and answered == sent


def _id_mismatch(answered: Any, sent: str | int) -> BadResponse:

    return BadResponse(
        f"POST /a2a answered id {COMPACT_JSON.encode(answered)}, "
        f"not the request's {COMPACT_JSON.encode(sent)}"
    )
