"""POST /a2a: JSON-RPC 2.0 for agents. Every JSON-RPC outcome is HTTP 200.

Methods (the reference shows none; these are the sandbox's assumption, see the contract):
agent.ping, leads.get {id}, leads.search (RequestDataOptions), leadStatusChanges.list {leadId}.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from leadctl_sandbox import leadstatus
from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.ops.leads import search_leads
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import history_json, lead_json, org_tags
from leadctl_sandbox.times import iso
from leadctl_sandbox.validation import schema_ref

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
NOT_FOUND = -32004


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def handle(call: Call) -> Reply:
    request_id: Any = None
    try:
        try:
            request = json.loads(call.raw_body)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise RpcError(PARSE_ERROR, "Parse error", str(error)) from None
        if isinstance(request, dict) and _valid_id(request.get("id")):
            request_id = request.get("id")
        errors = call.validator.validate(schema_ref("JsonRpcRequest"), request)
        if errors:
            raise RpcError(INVALID_REQUEST, "Invalid Request", {"errors": errors})
        method = METHODS.get(request["method"])
        if method is None:
            raise RpcError(METHOD_NOT_FOUND, "Method not found", {"method": request["method"]})
        params = request.get("params", {})
        if not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params", "params must be an object")
        result = method(call, params)
    except RpcError as error:
        failure: dict[str, Any] = {"code": error.code, "message": error.message}
        if error.data is not None:
            failure["data"] = error.data
        return Reply(200, {"jsonrpc": "2.0", "id": request_id, "error": failure})
    return Reply(200, {"jsonrpc": "2.0", "id": request_id, "result": result})


def _valid_id(value: Any) -> bool:
    return (
        value is None
        or isinstance(value, str)
        or (isinstance(value, int) and not isinstance(value, bool))
    )


def _ping(call: Call, params: dict[str, Any]) -> Any:
    org = call.conn.execute(
        "SELECT id, name FROM organizations WHERE id = ?", (call.principal.org_id,)
    ).fetchone()
    return {
        "pong": True,
        "organization": {"id": org["id"], "name": org["name"]},
        "credentialKind": call.principal.kind,
        "time": iso(call.now),
    }


def _string_param(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise RpcError(INVALID_PARAMS, "Invalid params", {"errors": {name: ["is required"]}})
    return value


def _lead_row(call: Call, lead_id: str) -> Any:
    row = call.conn.execute(
        "SELECT * FROM leads WHERE id = ? AND org_id = ?", (lead_id, call.principal.org_id)
    ).fetchone()
    if row is None:
        raise RpcError(NOT_FOUND, "Not found", {"leadId": lead_id})
    return row


def _get_lead(call: Call, params: dict[str, Any]) -> Any:
    row = _lead_row(call, _string_param(params, "id"))
    lead = lead_json(row, org_tags(call.conn, call.principal.org_id))
    lead["statusChanges"] = history_json(row, leadstatus.history(call.conn, row["id"]))
    return lead


def _search_leads(call: Call, params: dict[str, Any]) -> Any:
    errors = call.validator.validate(schema_ref("LeadRequestDataOptions"), params)
    if errors:
        raise RpcError(INVALID_PARAMS, "Invalid params", {"errors": errors})
    try:
        return search_leads(call.conn, call.principal.org_id, params, call.secret)
    except ApiProblem as problem:
        raise RpcError(INVALID_PARAMS, "Invalid params", {"errors": problem.errors}) from None


def _list_status_changes(call: Call, params: dict[str, Any]) -> Any:
    row = _lead_row(call, _string_param(params, "leadId"))
    return history_json(row, leadstatus.history(call.conn, row["id"]))


METHODS: dict[str, Callable[[Call, dict[str, Any]], Any]] = {
    "agent.ping": _ping,
    "leads.get": _get_lead,
    "leads.search": _search_leads,
    "leadStatusChanges.list": _list_status_changes,
}
