"""The /_sandbox/ control endpoints for tests (only with ``sandbox serve --faults``).

- POST /_sandbox/faults {"method"?, "path", "action", "count"?}: the next ``count`` (default
  1; null: until cleared) requests matching method ("*" or absent: any) and path (exact or
  glob) get the fault ``action`` (see :mod:`leadctl_sandbox.faults`). 201 with the rule.
- GET /_sandbox/faults: the pending rules. DELETE /_sandbox/faults: remove them all (204).
- GET /_sandbox/requests: {"items": [...]} what the service received (method, path, query,
  status, fault, operationId, credentialKind, redacted body, durationMs, and for a hung
  request abandonedAfterMs: when in the hang its client closed the connection, or null);
  DELETE clears it (204).
- POST /_sandbox/runs {"outcome"?: "Completed" | "Failed" | "Cancelled", "steps"?: 1-20}: a
  run of the demo organization that moves one step on each time its automation's runs are
  read, then ends as told (default Completed after 3 steps; :mod:`leadctl_sandbox.scripted_runs`).
  201 with {"automationId", "run"}.
- GET /_sandbox/info: the demo data's identifiers (organizations, users, sources,
  automations, phone numbers) and this instance's settings, so tests need not guess them.
- POST /_sandbox/tokens {"userId"?, "roles"?, "expiresIn"?, "otherOrganization"?}: a user JWT
  signed by this sandbox (default: the demo user with its roles; otherOrganization: true for
  the owner of the second demo organization; a negative expiresIn makes it expired).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from leadctl_sandbox import keys, scripted_runs
from leadctl_sandbox.db import loads, transaction
from leadctl_sandbox.faults import FaultBook, parse_fault
from leadctl_sandbox.requestlog import RequestLog
from leadctl_sandbox.settings import SandboxSettings
from leadctl_sandbox.state import SandboxState
from leadctl_sandbox.times import utcnow


class ControlError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class ControlApp:
    def __init__(
        self, *, faults: FaultBook, log: RequestLog, state: SandboxState, settings: SandboxSettings
    ) -> None:
        self.faults = faults
        self.log = log
        self.state = state
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        routes = {
            ("POST", "/_sandbox/faults"): self._add_fault,
            ("GET", "/_sandbox/faults"): self._list_faults,
            ("DELETE", "/_sandbox/faults"): self._clear_faults,
            ("GET", "/_sandbox/requests"): self._list_requests,
            ("DELETE", "/_sandbox/requests"): self._clear_requests,
            ("POST", "/_sandbox/tokens"): self._mint_token,
            ("POST", "/_sandbox/runs"): self._start_run,
            ("GET", "/_sandbox/info"): self._info,
        }
        handler = routes.get((request.method, request.url.path.rstrip("/")))
        try:
            if handler is None:
                raise ControlError(404, "no such control endpoint")
            response = await handler(request)
        except ControlError as error:
            response = JSONResponse({"status": error.status, "detail": error.detail}, error.status)
        await response(scope, receive, send)

    async def _json(self, request: Request) -> dict[str, Any]:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError:
            raise ControlError(400, "the body is not JSON") from None
        if not isinstance(body, dict):
            raise ControlError(400, "the body must be a JSON object")
        return body

    async def _add_fault(self, request: Request) -> Response:
        body = await self._json(request)
        path, action = body.get("path"), body.get("action")
        method = body.get("method") or "*"
        count = body.get("count", 1)
        if not isinstance(path, str) or not path.startswith("/"):
            raise ControlError(400, "path must be a path such as /leads or /sources/*")
        if not isinstance(action, str) or not isinstance(method, str):
            raise ControlError(400, "action and method must be strings")
        if count is not None and (not isinstance(count, int) or count < 1):
            raise ControlError(400, "count must be a positive integer or null")
        try:
            fault = parse_fault(action)
        except ValueError as error:
            raise ControlError(400, str(error)) from None
        rule = self.faults.add(method, path, fault, count)
        return JSONResponse(rule.to_json(), 201)

    async def _list_faults(self, request: Request) -> Response:
        return JSONResponse({"items": [rule.to_json() for rule in self.faults.rules]})

    async def _clear_faults(self, request: Request) -> Response:
        self.faults.clear()
        return Response(status_code=204)

    async def _list_requests(self, request: Request) -> Response:
        return JSONResponse({"items": self.log.to_json()})

    async def _clear_requests(self, request: Request) -> Response:
        self.log.clear()
        return Response(status_code=204)

    async def _mint_token(self, request: Request) -> Response:
        body = await self._json(request)
        default_user = "other_user_id" if body.get("otherOrganization") else "demo_user_id"
        user_id = body.get("userId") or self.state.meta(default_user)
        row = self.state.conn.execute(
            "SELECT org_id, roles FROM users WHERE id = ?", (user_id,)
        ).fetchone()
        if row is None:
            raise ControlError(404, "no such user")
        roles = body.get("roles", loads(row["roles"]))
        expires_in = body.get("expiresIn", keys.JWT_LIFETIME_SECONDS)
        if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
            raise ControlError(400, "roles must be a list of strings")
        if not isinstance(expires_in, int):
            raise ControlError(400, "expiresIn must be an integer number of seconds")
        token = keys.mint_user_token(
            self.state.secret,
            user_id=str(user_id),
            org_id=row["org_id"],
            roles=roles,
            lifetime=expires_in,
        )
        return JSONResponse({"token": token, "userId": user_id, "organizationId": row["org_id"]})

    async def _start_run(self, request: Request) -> Response:
        body = await self._json(request)
        outcome, steps = body.get("outcome", "Completed"), body.get("steps", 3)
        if not isinstance(outcome, str) or not isinstance(steps, int) or isinstance(steps, bool):
            raise ControlError(400, "outcome must be a string and steps an integer")
        conn = self.state.conn
        try:
            with transaction(conn, immediate=True):
                run = scripted_runs.start(
                    conn, self.state.meta("demo_org_id"), outcome=outcome, steps=steps, at=utcnow()
                )
        except ValueError as error:
            raise ControlError(400, str(error)) from None
        return JSONResponse({"automationId": run["automation"]["id"], "run": run}, 201)

    async def _info(self, request: Request) -> Response:
        conn, meta = self.state.conn, self.state.meta

        def org(org_id: str) -> dict[str, Any]:
            row = conn.execute("SELECT id, name FROM organizations WHERE id = ?", (org_id,))
            found = row.fetchone()
            return {"id": found["id"], "name": found["name"]}

        main, other = meta("demo_org_id"), meta("other_org_id")
        sources = conn.execute(
            "SELECT id, name, enabled FROM sources WHERE org_id = ? ORDER BY created_at, id",
            (main,),
        )
        automations = conn.execute(
            "SELECT id, name FROM automations WHERE org_id = ? ORDER BY name", (main,)
        )
        numbers = conn.execute(
            "SELECT number, org_id FROM phone_numbers ORDER BY number"
        ).fetchall()
        return JSONResponse(
            {
                "seed": self.state.seed,
                "organization": org(main),
                "otherOrganization": org(other),
                "users": {
                    "owner": meta("demo_user_id"),
                    "member": meta("demo_member_user_id"),
                    "readOnly": meta("demo_read_only_user_id"),
                    "otherOrganizationOwner": meta("other_user_id"),
                },
                "sources": [
                    {"id": r["id"], "name": r["name"], "enabled": bool(r["enabled"])}
                    for r in sources
                ],
                "automations": [{"id": r["id"], "name": r["name"]} for r in automations],
                "phoneNumbers": [r["number"] for r in numbers if r["org_id"] == main],
                "otherOrganizationPhoneNumbers": [
                    r["number"] for r in numbers if r["org_id"] == other
                ],
                "intakeDelay": self.settings.intake_delay,
                "rateLimit": (
                    self.settings.rate_limit.to_json() if self.settings.rate_limit else None
                ),
                "retryAfter": self.settings.retry_after,
            }
        )
