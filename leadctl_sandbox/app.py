"""The service's ASGI application: route, authenticate, authorize, validate, dispatch.

Every step takes its rules from the contract: the paths and methods, each operation's
credential kinds, its parameters and request body schema. Errors become problem+json.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from leadctl_sandbox import intake
from leadctl_sandbox.auth import SOURCE, authenticate, authorize
from leadctl_sandbox.contract import ContractOperation, iter_operations
from leadctl_sandbox.db import transaction
from leadctl_sandbox.ops import Call, Handler, handlers
from leadctl_sandbox.problems import (
    PROBLEM_MEDIA_TYPE,
    ApiProblem,
    new_trace_id,
    problem_body,
    validation_problem,
)
from leadctl_sandbox.published import PUBLISHED_PATH, published_bytes, published_contract
from leadctl_sandbox.routing import Router
from leadctl_sandbox.settings import SandboxSettings
from leadctl_sandbox.state import SandboxState
from leadctl_sandbox.times import utcnow
from leadctl_sandbox.trigger import NO_WEBHOOKS, TRIGGER_PATH, example_event
from leadctl_sandbox.validation import BODY_KEY, Errors, SchemaValidator
from leadctl_sandbox.webhooks import Event, WebhookSender

logger = logging.getLogger("leadctl_sandbox")

# Bodies the handler parses itself: JSON-RPC reports a bad body in a 200 answer.
RAW_BODY_OPERATIONS = frozenset({"a2a"})
# Keys the ASGI scope carries out to the request log.
SCOPE_OPERATION = "leadctl.operation"
SCOPE_CREDENTIAL_KIND = "leadctl.credential_kind"


class SandboxApp:
    def __init__(
        self,
        state: SandboxState,
        settings: SandboxSettings,
        webhooks: WebhookSender | None = None,
    ) -> None:
        contract = published_contract()
        self.state = state
        self.settings = settings
        self.webhooks = webhooks
        self.validator = SchemaValidator(contract)
        self.router = Router(iter_operations(contract))
        self.handlers: Mapping[str, Handler] = handlers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        trace_id = new_trace_id()
        try:
            response = await self._handle(request, scope)
        except ApiProblem as problem:
            response = self._problem_response(problem, scope, trace_id)
        except Exception as error:  # the client gets a 500 problem, the operator a log line
            logger.error(
                "internal error %s: %s (trace id %s)", type(error).__name__, error, trace_id
            )
            response = self._problem_response(ApiProblem(500), scope, trace_id)
        response.headers["X-Trace-Id"] = trace_id
        await response(scope, receive, send)

    def _problem_response(self, problem: ApiProblem, scope: Scope, trace_id: str) -> Response:
        instance = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
        return Response(
            problem_body(problem, instance=instance, trace_id=trace_id),
            status_code=problem.status,
            headers=problem.headers,
            media_type=PROBLEM_MEDIA_TYPE,
        )

    async def _handle(self, request: Request, scope: Scope) -> Response:
        raw_path = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
        if request.method == "GET" and raw_path.split("?", 1)[0] == PUBLISHED_PATH:
            # Assumed: the service publishes its contract here, to anyone (no credential).
            scope[SCOPE_OPERATION] = "getContract"
            return Response(published_bytes(), media_type="application/json")
        if request.method == "POST" and raw_path.split("?", 1)[0] == TRIGGER_PATH:
            return await self._trigger(request, scope)
        operation, path_params = self.router.match(request.method, raw_path.split("?", 1)[0])
        scope[SCOPE_OPERATION] = operation.operation_id
        raw_body = await request.body()
        conn = self.state.conn
        now = utcnow()
        events: list[Event] | None = [] if self.webhooks is not None else None
        with transaction(conn, immediate=True):
            intake.settle(conn, now, events)
            principal = authenticate(conn, self.state.secret, request.headers.get("authorization"))
            scope[SCOPE_CREDENTIAL_KIND] = principal.kind
            authorize(principal, operation.operation_id, operation.credential_kinds)
            path, query = self._parameters(operation, path_params, request)
            body = None
            if operation.operation_id not in RAW_BODY_OPERATIONS:
                body = self._body(operation, raw_body)
            call = Call(
                principal=principal,
                conn=conn,
                secret=self.state.secret,
                settings=self.settings,
                validator=self.validator,
                now=now,
                path=path,
                query=query,
                body=body,
                raw_body=raw_body,
                events=events,
            )
            reply = self.handlers[operation.operation_id](call)
        if self.webhooks is not None and events:
            # Committed: what the events tell has happened. Sent in the background.
            self.webhooks.publish(events)
        if reply.status == 204:
            return Response(status_code=204)
        content = json.dumps(reply.body, ensure_ascii=False, separators=(",", ":"))
        return Response(content, status_code=reply.status, media_type="application/json")

    async def _trigger(self, request: Request, scope: Scope) -> Response:
        """A signed example delivery (leadctl_sandbox/trigger.py), for the caller's
        organization: any credential that may read it."""
        scope[SCOPE_OPERATION] = "triggerWebhook"
        raw_body = await request.body()
        conn = self.state.conn
        with transaction(conn, immediate=True):
            principal = authenticate(conn, self.state.secret, request.headers.get("authorization"))
            scope[SCOPE_CREDENTIAL_KIND] = principal.kind
            if principal.kind == SOURCE:
                raise ApiProblem(403, "a source key may only create leads")
            if self.webhooks is None:
                raise ApiProblem(409, NO_WEBHOOKS)
            try:
                body = json.loads(raw_body or b"{}")
            except ValueError:
                raise ApiProblem(400, "the body is not JSON") from None
            if not isinstance(body, dict):
                raise ApiProblem(400, 'the body is {"type": EVENT, "data": {...}}')
            event = example_event(conn, principal.org_id, body, utcnow())
        webhook_id = self.webhooks.publish_one(event)
        answer = {"webhookId": webhook_id, "type": event.type, "url": self.webhooks.url}
        return Response(json.dumps(answer), status_code=202, media_type="application/json")

    def _parameters(
        self, operation: ContractOperation, path_params: Mapping[str, str], request: Request
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        path: dict[str, Any] = {}
        query: dict[str, Any] = {}
        errors: Errors = {}
        for spec in operation.spec.get("parameters", ()):
            name, where, schema = spec["name"], spec["in"], spec.get("schema", {})
            if where == "path":
                raw: str | None = path_params[name]
            else:
                values = request.query_params.getlist(name)
                if len(values) > 1:
                    errors.setdefault(name, []).append("must be given once")
                    continue
                raw = values[0] if values else None
            if raw is None:
                if spec.get("required"):
                    errors.setdefault(name, []).append("is required")
                continue
            try:
                value = self.validator.coerce_parameter(schema, raw)
            except ValueError as error:
                errors.setdefault(name, []).append(str(error))
                continue
            found = self.validator.validate(schema, value, where=name)
            if found:
                errors.update(found)
                continue
            (path if where == "path" else query)[name] = value
        if errors:
            raise validation_problem(errors)
        return path, query

    def _body(self, operation: ContractOperation, raw_body: bytes) -> Any:
        spec = operation.spec.get("requestBody")
        if spec is None:
            return None
        if not raw_body.strip():
            if spec.get("required"):
                raise validation_problem({BODY_KEY: ["a JSON request body is required"]})
            return None
        try:
            body = json.loads(raw_body, parse_constant=_not_json)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise validation_problem({BODY_KEY: ["is not valid JSON"]}) from None
        schema = spec["content"]["application/json"]["schema"]
        errors = self.validator.validate(schema, body)
        if errors:
            raise validation_problem(errors)
        return body


def _not_json(name: str) -> Any:
    """Python reads NaN and Infinity; JSON has no such numbers, so neither does a body."""
    raise ValueError(f"{name} is not JSON")
