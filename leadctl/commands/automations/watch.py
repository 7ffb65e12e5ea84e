"""``automations runs --watch``: follow one run until it ends, and exit with its outcome.

The polling is ``--wait``'s (:func:`leadctl.verbkit.waiting.poll_until`: its backoff, the
profile's rate limit, Retry-After, ``--wait-timeout`` as exit 8, Ctrl-C as exit 130 with
the run left alone). What is drawn of each state: on a terminal under ``table``, the run
tree redrawn in place (rich Live, loaded here only); otherwise one line per change, the
run's JSON for json/ndjson/--jq, a line of words for the other formats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from leadctl.contract.operations import Operation
from leadctl.errors import ExitCode
from leadctl.output import display_zone_of, emit_object, prints_as_received
from leadctl.output.registry import view_wanted
from leadctl.verbkit.waiting import Follow, WaitError, poll_until

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.output import Column

# The reference shows a run's completedAt, failedAt and cancelledAt, not its status values:
# a run has ended when one is set. A status word without one (assumed, the sandbox's) also
# ends it; Skipped (the lead opted out, say) ends a run without failing it.
END_FIELDS = (("completedAt", "completed"), ("failedAt", "failed"), ("cancelledAt", "cancelled"))
END_STATUSES = {
    "completed": "completed",
    "succeeded": "completed",
    "failed": "failed",
    "cancelled": "cancelled",
    "canceled": "cancelled",
    "skipped": "skipped",
}
SUCCEEDED = ("completed", "skipped")


class RunDidNotSucceed(WaitError):
    """The watched run ended failed or cancelled: exit 6, as ``--wait``'s failed status."""

    exit_code = ExitCode.REJECTED


def outcome(run: Mapping[str, Any]) -> str | None:
    """How the run ended (completed, failed, cancelled, skipped), or None while it runs."""
    for field, word in END_FIELDS:
        if run.get(field):
            return word
    status = run.get("status")
    return END_STATUSES.get(status.strip().casefold()) if isinstance(status, str) else None


def watch_run(
    ctx: Context,
    operation: Operation,
    automation_id: str,
    run: dict[str, Any],
    columns: list[Column],
    *,
    timeout: float | None,
) -> None:
    """Show each new state of ``run`` until it ends; raise unless it succeeded."""
    ident = str(run.get("id"))
    client = ctx.client()

    def poll(wanted: str) -> Any:
        data = client.call_json(operation, path_params={"id": automation_id})
        runs = data.get("runs") if isinstance(data, dict) else None
        found = [r for r in runs or () if isinstance(r, dict) and r.get("id") == wanted]
        return found[0] if found else None  # None: not among the recent runs (kept as last)

    def status(found: Any) -> str:
        word = found.get("status") if isinstance(found, dict) else None
        return str(word) if word else "unknown"

    with _drawing(ctx, columns) as seen:
        follow = Follow(
            ident=ident,
            what="run",
            ended=lambda found: outcome(found) is not None,
            shown=status,
            seen=seen,
            interrupted_hint=None,
            interrupted_verb="watching",
        )
        run = poll_until(ctx, run, follow, poll, timeout=timeout)
    ended = outcome(run)
    if ended not in SUCCEEDED:
        error = ": ".join(
            str(run[key]) for key in ("lastErrorCode", "lastErrorMessage") if run.get(key)
        )
        raise RunDidNotSucceed(
            f"run {ident} ended {status(run)}" + (f": {error}" if error else ""), resource=run
        )


@contextmanager
def _drawing(ctx: Context, columns: list[Column]) -> Iterator[Callable[[Any], None]]:
    """Who sees each state: the live tree on a terminal, else one line per change."""
    ios = ctx.ios
    if ios.stdout_is_tty and view_wanted(ctx):
        with _live_tree(ctx) as draw:
            yield draw
        return
    if prints_as_received(ctx) or ctx.options.jq is not None:
        yield lambda found: emit_object(ctx, found, columns=columns)
        return
    from leadctl.views.automation_runs import run_change_line

    def line(found: Any) -> None:
        out = ios.data_out()
        out.write(run_change_line(found, zone=display_zone_of(ctx)) + "\n")
        out.flush()

    yield line


@contextmanager
def _live_tree(ctx: Context) -> Iterator[Callable[[Any], None]]:
    """The run tree redrawn in place while watched (cropped to the terminal), then drawn
    once more in full when the watch ends, however it ends."""
    from rich.live import Live

    from leadctl.views.automation_runs import render_run_tree
    from leadctl.views.console import show

    def tree(found: Any) -> Any:
        return render_run_tree(found, now=ctx.clock.now(), zone=display_zone_of(ctx))

    last: list[Any] = []
    live = Live(console=ctx.ios.console(), auto_refresh=False, transient=True)

    def draw(found: Any) -> None:
        last[:] = [found]
        live.update(tree(found), refresh=True)

    live.start()
    try:
        yield draw
    finally:
        live.stop()
        if last:
            show(ctx.ios, tree(last[0]))
