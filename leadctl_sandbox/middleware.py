"""The outermost ASGI layer: request log, fault injection, rate limiting, control endpoints.

It sits directly on uvicorn, so that ``drop`` can close the very TCP connection a request
came on.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leadctl_sandbox.app import SCOPE_CREDENTIAL_KIND, SCOPE_OPERATION
from leadctl_sandbox.problems import (
    PROBLEM_MEDIA_TYPE,
    ApiProblem,
    new_trace_id,
    problem_body,
    validation_problem,
)
from leadctl_sandbox.requestlog import RequestLog, loggable_body
from leadctl_sandbox.times import iso, utcnow

if TYPE_CHECKING:
    # Loaded by build_asgi only for a sandbox that has faults or a rate limit: the embedded
    # sandbox of each --profile sandbox command has neither.
    from leadctl_sandbox.faults import Fault, FaultBook
    from leadctl_sandbox.ratelimit import FixedWindowLimiter, RateLimiter

CONTROL_PREFIX = "/_sandbox"


class SandboxMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        log: RequestLog,
        faults: FaultBook | None = None,
        limiter: RateLimiter | FixedWindowLimiter | None = None,
        control: ASGIApp | None = None,
        retry_after: bool = True,
    ) -> None:
        self.app = app
        self.log = log
        self.faults = faults
        self.limiter = limiter
        self.retry_after = retry_after
        self.control = control

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if self.control is not None and (
            path == CONTROL_PREFIX or path.startswith(CONTROL_PREFIX + "/")
        ):
            await self.control(scope, receive, send)
            return
        body = await _read_body(receive)
        replay = _replaying(body, receive)
        started = time.perf_counter()
        entry: dict[str, Any] = {
            "method": scope["method"],
            "path": path,
            "query": scope.get("query_string", b"").decode("latin-1"),
            "receivedAt": iso(utcnow()),
            "body": loggable_body(body),
            "fault": None,
            "status": None,
            "operationId": None,
            "credentialKind": None,
            "durationMs": None,
            # A hung request whose client closed the connection before the hang was over:
            # how far into the hang (tests check a timeout gave up without waiting it out).
            "abandonedAfterMs": None,
        }
        # Logged on receipt, in arrival order; the outcome is filled in when known.
        self.log.record(entry)

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                entry["status"] = message["status"]
            await send(message)

        try:
            await self._serve(scope, replay, capture, send, entry, receive)
        finally:
            entry["operationId"] = scope.get(SCOPE_OPERATION)
            entry["credentialKind"] = scope.get(SCOPE_CREDENTIAL_KIND)
            entry["durationMs"] = round((time.perf_counter() - started) * 1000, 1)

    async def _serve(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        raw_send: Send,
        entry: dict[str, Any],
        raw_receive: Receive,
    ) -> None:
        if self.faults is not None:
            try:
                fault = self._fault_for(scope)
            except ValueError as error:
                problem = validation_problem({"X-Leadctl-Fault": [str(error)]})
                await _problem(problem, scope, receive, send)
                return
            if fault is not None:
                entry["fault"] = fault.spec
                if fault.kind == "hang":
                    await _hang(fault.seconds, raw_receive, entry)
                elif await self._inject(fault, scope, receive, send, raw_send):
                    return
        if self.limiter is not None:
            headers = Headers(scope=scope)
            client = scope.get("client") or ("unknown", 0)
            wait = self.limiter.check(headers.get("authorization") or f"anonymous:{client[0]}")
            if wait is not None:
                problem = ApiProblem(
                    429,
                    "Rate limit exceeded for this credential.",
                    headers={"Retry-After": str(wait)} if self.retry_after else {},
                )
                await _problem(problem, scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _fault_for(self, scope: Scope) -> Fault | None:
        from leadctl_sandbox.faults import FAULT_HEADER, parse_fault

        assert self.faults is not None
        header = Headers(scope=scope).get(FAULT_HEADER)
        if header:
            return parse_fault(header)
        return self.faults.take(scope["method"], scope["path"])

    async def _inject(
        self, fault: Fault, scope: Scope, receive: Receive, send: Send, raw_send: Send
    ) -> bool:
        """Apply a fault other than a hang; True when the request is finished with it."""
        if fault.kind == "status":
            headers = {}
            if fault.retry_after is not None:
                headers["Retry-After"] = str(fault.retry_after)
            detail = f"Injected fault: {fault.spec}."
            await _problem(ApiProblem(fault.status, detail, headers=headers), scope, receive, send)
            return True
        if fault.kind == "drop-after":
            await self.app(scope, receive, _discard)
        await drop_connection(raw_send)
        return True


async def _hang(seconds: float, raw_receive: Receive, entry: dict[str, Any]) -> None:
    """Wait ``seconds`` before the request is handled, noting in ``entry`` when the client
    went away meanwhile. The whole hang is waited out even then: a hung write still lands
    late, as it would on a slow service.

    ``raw_receive`` is the server's own: its body was read already, so the next message is
    the disconnect; the app's replayed body is left untouched.
    """
    started = time.perf_counter()
    watcher = asyncio.ensure_future(raw_receive())
    try:
        done, _ = await asyncio.wait({watcher}, timeout=seconds)
        if done and watcher.result()["type"] == "http.disconnect":
            entry["abandonedAfterMs"] = round((time.perf_counter() - started) * 1000, 1)
        remaining = seconds - (time.perf_counter() - started)
        if remaining > 0:
            await asyncio.sleep(remaining)
    finally:
        watcher.cancel()


async def drop_connection(send: Send) -> None:
    """Close the request's TCP connection without a response.

    uvicorn hands the app the bound ``send`` of its request cycle, which holds the
    connection's transport; no public API closes a connection mid-request.
    """
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is None:
        raise RuntimeError("this server does not expose the connection to drop")
    transport.close()
    # Let connection_lost run, so uvicorn sees the client gone and does not answer a 500.
    for _ in range(3):
        await asyncio.sleep(0)


async def _discard(message: Message) -> None:
    return None


async def _problem(problem: ApiProblem, scope: Scope, receive: Receive, send: Send) -> None:
    trace_id = new_trace_id()
    instance = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
    response = Response(
        problem_body(problem, instance=instance, trace_id=trace_id),
        status_code=problem.status,
        headers={**problem.headers, "X-Trace-Id": trace_id},
        media_type=PROBLEM_MEDIA_TYPE,
    )
    await response(scope, receive, send)


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
