"""``--wait``: read a resource again, with backoff, until its status settles.

The rule comes from the contract's ``x-leadctl-pending`` extension (assumed, leadctl's
own): which field holds the status, which values mean "still working" and which mean
"failed". A failed final status is exit 6 (the service rejected the work), running past
``--wait-timeout`` exit 8; either way stdout stays empty and the error carries the last
state of the resource, so a script still learns its id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.config.rate_limit import known_limit
from leadctl.contract.operations import Operation, curated
from leadctl.errors import ApiError, BadResponse, ExitCode, LeadctlError
from leadctl.http.retry import Backoff, no_jitter
from leadctl.output import get_path

if TYPE_CHECKING:
    from leadctl.contract.catalogue import OperationCatalogue
    from leadctl.contract.entries import Pending
    from leadctl.verbkit.invocation import RequestInvocation

# Polls back off like retries (the same Backoff), from a shorter first wait and more
# gently: the resource is expected to settle, not the service to recover. One process
# polling one resource needs no jitter to be spread from others.
POLL_BACKOFF = Backoff(base=0.25, factor=1.6, cap=5.0, jitter=no_jitter)


@dataclass(frozen=True)
class PendingRule:
    field: str
    pending: frozenset[str]
    failed: frozenset[str]
    id_field: str = "id"
    reason_field: str | None = None  # why it failed, shown in the error

    @classmethod
    def from_pending(cls, pending: Pending) -> PendingRule:
        """The rule of the contract's x-leadctl-pending."""
        return cls(
            field=pending.field,
            pending=frozenset(pending.pending),
            failed=frozenset(pending.failed),
            id_field=pending.id_field,
            reason_field=pending.reason_field or None,
        )

    def status(self, resource: Any) -> Any:

        return get_path(resource, self.field)


# Leads created through intake, when the contract says nothing (the bundled one).
LEAD_RULE = PendingRule(
    "processingStatus", frozenset({"Pending"}), frozenset({"Rejected"}), "id", "processingError"
)


class WaitError(LeadctlError):
    """The wait ended without success; carries the resource as last seen."""

    def __init__(self, message: str, *, resource: Any, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.resource = resource

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["resource"] = self.resource
        return body


class FailedStatus(WaitError):
    exit_code = ExitCode.REJECTED


class WaitTimedOut(WaitError):
    exit_code = ExitCode.SERVICE_FAILURE


class WaitInterrupted(WaitError):
    exit_code = ExitCode.INTERRUPTED


def wait_for(
    ctx: RequestInvocation,
    resource: Any,
    rule: PendingRule,
    poll: Callable[[str], Any],
    *,
    timeout: float,
    what: str,
) -> Any:
    """The resource once its status is no longer pending; raises on failure or timeout.

    ``poll(id)`` reads the resource again (None: not visible yet, which counts as pending).
    A 404 while polling also counts as not visible yet: a new resource may take a moment
    to appear in reads.
    """
    ident = _identifier(resource, rule)

    def still_pending(found: Any) -> bool:
        return rule.status(found) in rule.pending

    with _spinner(ctx) as show:

        def seen(found: Any) -> None:
            if still_pending(found):  # the spinner names what is awaited, not the end
                show(f"waiting for {what} {ident}: {_shown(rule.status(found))}")

        follow = Follow(
            ident=ident,
            what=what,
            ended=lambda found: not still_pending(found),
            shown=lambda found: _shown(rule.status(found)),
            seen=seen,
        )
        resource = poll_until(ctx, resource, follow, poll, timeout=timeout)
    status = rule.status(resource)
    if status in rule.failed:
        reason = None
        if rule.reason_field and isinstance(resource, dict):
            reason = resource.get(rule.reason_field)
        raise FailedStatus(
            f"{what} {ident} ended {status}" + (f": {reason}" if reason else ""),
            resource=resource,
        )
    return resource


@dataclass(frozen=True)
class Follow:
    """What :func:`poll_until` follows: which resource, when it has ended, how its state
    reads in a message, and who sees each state read (the first one included)."""

    ident: str
    what: str
    ended: Callable[[Any], bool]
    shown: Callable[[Any], str]
    seen: Callable[[Any], None] = lambda _found: None
    # The second line of the Ctrl-C message; None: the one line says it all.
    interrupted_hint: str | None = "the request itself was sent; check its status later"
    interrupted_verb: str = "waiting for"


def poll_until(
    ctx: RequestInvocation,
    resource: Any,
    follow: Follow,
    poll: Callable[[str], Any],
    *,
    timeout: float | None,
) -> Any:
    """Read the resource again until ``follow.ended`` says so: the one polling loop of
    ``--wait`` and ``--watch``.

    Pauses grow as :data:`POLL_BACKOFF`, never shorter than one request's share of the
    profile's ``rate_limit`` (the service's rate budget, when the user knows it). A 429 that
    outlasts the client's own retries pauses polling for its Retry-After (else the next
    backoff) instead of ending it. ``timeout`` (None: none) bounds the whole wait: past it,
    exit 8; Ctrl-C is exit 130 and leaves the resource alone.
    """
    clock = ctx.clock
    started = clock.monotonic()
    least = _least_pause(ctx)
    slept = 0.0
    polls = 0
    refused: float | None = None  # the Retry-After of a 429 that ended the last read
    try:
        if resource is not None:
            follow.seen(resource)
        while resource is None or not follow.ended(resource):
            elapsed = max(clock.monotonic() - started, slept)
            if timeout is not None and elapsed >= timeout:
                state = "not visible yet" if resource is None else follow.shown(resource)
                raise WaitTimedOut(
                    f"{follow.what} {follow.ident} is still {state} after {timeout:g}s",
                    resource=resource,
                    hint="it may still finish: check it again later, or wait longer with "
                    "--wait-timeout SECONDS",
                )
            polls += 1
            pause = max(POLL_BACKOFF.delay(polls), least) if refused is None else refused
            if timeout is not None:
                pause = min(pause, timeout - elapsed)
            clock.sleep(pause)
            slept += pause
            before = resource
            resource, refused = _read(poll, follow.ident, resource)
            if resource is not None and resource != before:
                follow.seen(resource)
    except KeyboardInterrupt:
        state = "" if resource is None else f" (it was {follow.shown(resource)})"
        raise WaitInterrupted(
            f"stopped {follow.interrupted_verb} {follow.what} {follow.ident}{state}",
            resource=resource,
            hint=follow.interrupted_hint,
        ) from None
    return resource


def _least_pause(ctx: RequestInvocation) -> float:
    """One request's share of the profile's known rate limit (0 without one)."""
    limit = known_limit(None, ctx.settings.get("rate_limit"))
    return 0.0 if limit is None else 1.0 / limit.per_second


def _identifier(resource: Any, rule: PendingRule) -> str:
    ident = resource.get(rule.id_field) if isinstance(resource, dict) else None
    if not isinstance(ident, (str, int)) or isinstance(ident, bool) or ident == "":
        raise BadResponse(f"cannot wait: the answer has no {rule.id_field} to read it back by")
    return str(ident)


def _read(poll: Callable[[str], Any], ident: str, last: Any) -> tuple[Any, float | None]:
    """The resource read again (the last one seen while it is not visible), and the
    seconds a 429 asked to wait before the next read (None: it was answered)."""
    try:
        found = poll(ident)
    except ApiError as error:
        if error.status == 404:
            return last, None
        if error.status == 429:
            wait = error.retry_after
            return last, wait if wait is not None else POLL_BACKOFF.cap
        raise
    return (last if found is None else found), None


def _shown(status: Any) -> str:
    return "unknown" if status is None else str(status)


class _spinner:
    """A rich spinner on stderr while waiting, only when stderr is a terminal (and no -q)."""

    def __init__(self, ctx: RequestInvocation) -> None:
        self._ctx = ctx
        self._status: Any = None

    def __enter__(self) -> Callable[[str], None]:
        ios = self._ctx.ios
        if not ios.progress_enabled:
            return lambda _text: None
        from rich.text import Text

        status = self._status = ios.console(stderr=True).status("waiting")
        status.start()
        # A Text, never a str: rich reads a str given to a spinner as markup, and the words
        # shown are the service's (a status "[/x]" would end the wait with a MarkupError).
        return lambda text: status.update(Text(text))

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.stop()


def wait_for_lead(
    ctx: RequestInvocation, tree: OperationCatalogue, lead: Any, *, timeout: float
) -> Any:
    """``leads create --wait``: the lead once intake accepted it.

    The rule is the contract's (x-leadctl-pending on createLead) or, without one, the
    intake's Pending -> Accepted | Rejected. The lead is read back with the contract's
    GET /leads/{id} when it has one, else found with ``listMyLeads`` filtered by id (the
    bundled contract has no single-lead read).
    """
    create = tree.operation("createLead")
    pending = create.pending if create else None
    rule = PendingRule.from_pending(pending) if pending else LEAD_RULE
    poll_op = tree.operation(pending.poll) if pending and pending.poll else None
    if poll_op is None:
        poll_op = tree.single_read("/leads")
    poll = poll_function(ctx, poll_op) if poll_op is not None else _find_lead(ctx)
    return wait_for(ctx, lead, rule, poll, timeout=timeout, what="lead")


def _find_lead(ctx: RequestInvocation) -> Callable[[str], Any]:
    client = ctx.client()

    def poll(ident: str) -> Any:
        body = {"filters": [{"field": "id", "value": ident}], "pageSize": 1}
        page = client.call_json(curated(ctx, "POST", "/leads/all/my"), json_body=body)
        items = page.get("items") if isinstance(page, dict) else None
        return items[0] if isinstance(items, list) and items else None

    return poll


def poll_function(ctx: RequestInvocation, poll_op: Operation) -> Any:
    """``poll(id)`` reading a resource with a GET that takes its id as the one path
    parameter."""
    operation = poll_op.with_overrides(ctx.settings)
    name = next(p.name for p in poll_op.parameters if p.where == "path")
    client = ctx.client()

    def poll(ident: str) -> Any:
        return client.call_json(operation, path_params={name: ident})

    return poll
