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

from leadctl.contract.operations import Operation, curated
from leadctl.errors import ApiError, BadResponse, ExitCode, LeadctlError
from leadctl.http.retry import Backoff, no_jitter
from leadctl.output import get_path

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.entries import Pending
    from leadctl.generated.tree import GeneratedTree

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
    ctx: Context,
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
    clock = ctx.clock
    started = clock.monotonic()
    slept = 0.0
    polls = 0
    with _spinner(ctx) as show:
        while rule.status(resource) in rule.pending or resource is None:
            elapsed = max(clock.monotonic() - started, slept)
            if elapsed >= timeout:
                raise WaitTimedOut(
                    f"{what} {ident} is still {_shown(rule.status(resource))} after {timeout:g}s",
                    resource=resource,
                    hint="it may still finish: check it again later, or wait longer with "
                    "--wait-timeout SECONDS",
                )
            show(f"waiting for {what} {ident}: {_shown(rule.status(resource))}")
            polls += 1
            pause = min(POLL_BACKOFF.delay(polls), timeout - elapsed)
            try:
                clock.sleep(pause)
                slept += pause
                resource = _read(poll, ident, resource)
            except KeyboardInterrupt:
                raise WaitInterrupted(
                    f"stopped waiting for {what} {ident}",
                    resource=resource,
                    hint="the request itself was sent; check its status later",
                ) from None
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


def _identifier(resource: Any, rule: PendingRule) -> str:
    ident = resource.get(rule.id_field) if isinstance(resource, dict) else None
    if not isinstance(ident, (str, int)) or isinstance(ident, bool) or ident == "":
        raise BadResponse(f"cannot wait: the answer has no {rule.id_field} to read it back by")
    return str(ident)


def _read(poll: Callable[[str], Any], ident: str, last: Any) -> Any:
    try:
        found = poll(ident)
    except ApiError as error:
        if error.status == 404:
            return last
        raise
    return last if found is None else found


def _shown(status: Any) -> str:
    return "unknown" if status is None else str(status)


class _spinner:
    """A rich spinner on stderr while waiting, only when stderr is a terminal (and no -q)."""

    def __init__(self, ctx: Context) -> None:
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


def wait_for_lead(ctx: Context, tree: GeneratedTree, lead: Any, *, timeout: float) -> Any:
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


def _find_lead(ctx: Context) -> Callable[[str], Any]:
    client = ctx.client()

    def poll(ident: str) -> Any:
        body = {"filters": [{"field": "id", "value": ident}], "pageSize": 1}
        page = client.call_json(curated(ctx, "POST", "/leads/all/my"), json_body=body)
        items = page.get("items") if isinstance(page, dict) else None
        return items[0] if isinstance(items, list) and items else None

    return poll


def poll_function(ctx: Context, poll_op: Operation) -> Any:
    """``poll(id)`` reading a resource with a GET that takes its id as the one path
    parameter."""
    operation = poll_op.with_overrides(ctx.settings)
    name = next(p.name for p in poll_op.parameters if p.where == "path")
    client = ctx.client()

    def poll(ident: str) -> Any:
        return client.call_json(operation, path_params={name: ident})

    return poll
