"""``automations runs`` for a person: a table of runs, and one run as a tree of its actions
with their events.

Run, action and event status values are not enumerated by the reference: colors come
from what the words say (see :func:`~leadctl.views.widgets.status_style`) and the words
themselves are always printed. The decoded JSON is read through the lenient models of
:mod:`leadctl.models.automation_runs`, so an odd value is drawn as absent, never a crash.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone, tzinfo
from typing import TYPE_CHECKING, Any

from leadctl.models.automation_runs import (
    AutomationRun,
    RunAction,
    RunEvent,
    RunHistory,
    WithStatus,
)
from leadctl.output.cells import format_datetime
from leadctl.output.fit import FitColumn, fit_columns, is_free_text
from leadctl.views.timefmt import between, moment, parse_instant, readable, short
from leadctl.views.widgets import MISSING, count, safe, status_style

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

# The run field that says when (and how) a run ended, in the order they are checked.
ENDINGS = (("completed_at", "completed"), ("failed_at", "failed"), ("cancelled_at", "cancelled"))


def _status_text(item: WithStatus) -> Text:
    from rich.text import Text

    status = item.status
    display = item.status_display or status
    return Text(safe(display) or MISSING, style=status_style(status) or status_style(display))


def _retries(done: float | None, most: float | None) -> Text:
    from rich.text import Text

    if done is None and most is None:
        return Text("")
    text = f"{count(done)}/{count(most)}" if most is not None else count(done)
    style = ""
    if done:
        style = "red" if most is not None and done >= most else "yellow"
    return Text(text, style=style)


def _step(run: AutomationRun) -> str:
    step = run.current_step
    name = safe(step.name) if step is not None else ""
    order = run.current_step_order
    if order is None:
        return name
    return f"{count(order)}. {name}" if name else f"step {count(order)}"


def _error(code: str | None, message: str | None) -> str:
    code, message = safe(code), safe(message)
    return f"{code}: {message}" if code and message else code or message


def ending(run: AutomationRun) -> tuple[str, str] | None:
    """Which end the run reached and when, if any."""
    for field, word in ENDINGS:
        when: str | None = getattr(run, field)
        if when:
            return word, when
    return None


def _when_next(value: str, now: datetime) -> str:
    """``in 5m``, or ``due 3h ago`` for a time already passed (the run is behind)."""
    text = short(value, now)
    return f"due {text}" if text.endswith(" ago") else text


def shown_time(value: str | None, zone: tzinfo | None) -> str:
    """A time the way every table shows it (``2026-11-21 14:03 UTC``, in ``zone``)."""
    if value is None:
        return ""
    return format_datetime(str(value), zone)


def _next(run: AutomationRun, now: datetime, zone: tzinfo | None) -> str:
    """When the run acts next, as a time; ``due`` when that time has passed (the run is
    behind)."""
    for value, word in ((run.next_retry_at, "retry "), (run.next_execution_at, "")):
        if value:
            moment = parse_instant(value)
            due = "due " if moment is not None and moment < now else ""
            return f"{word}{due}{shown_time(value, zone)}"
    return ""


# -- the list ----------------------------------------------------------------------------

# From the left, most wanted first: columns from the right are left out when narrow.
RUN_HEADERS = ("run", "status", "lead", "step", "retries", "started", "ended", "next", "last run")


class _RowsWithNotes:
    """A one-line-per-row table with a note line under some rows (the last error), which
    can use the whole width instead of one narrow column."""

    def __init__(self, table: Any, notes: list[Text | None], indent: int) -> None:
        self.table = table
        self.notes = notes
        self.indent = indent

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.segment import Segment

        lines = console.render_lines(self.table, options, pad=False)
        header = 1 if self.table.show_header else 0
        note_options = options.update(width=max(1, options.max_width - self.indent))
        for index, line in enumerate(lines):
            yield from line
            yield Segment.line()
            row = index - header
            note = self.notes[row] if 0 <= row < len(self.notes) else None
            if note is not None:
                for note_line in console.render_lines(note, note_options, pad=False):
                    yield Segment(" " * self.indent)
                    yield from note_line
                    yield Segment.line()


def _note(run: AutomationRun) -> Text | None:
    """The line under a run: its last error, else why it was skipped."""
    from rich.text import Text

    error = _error(run.last_error_code, run.last_error_message)
    skip = safe(run.skip_reason_display or run.skip_reason_code)
    if not error and not skip:
        return None
    text, style = (f"↳ {error}", "red") if error else (f"↳ skipped: {skip}", "yellow")
    return Text(text, style=style, no_wrap=True, overflow="ellipsis")


def _row(run: AutomationRun, now: datetime, zone: tzinfo | None) -> list[Text]:
    from rich.text import Text

    end = ending(run)
    upcoming = _next(run, now, zone)
    return [
        Text(safe(run.id)),
        _status_text(run),
        Text(safe(run.lead_id)),
        Text(_step(run)),
        _retries(run.retry_count, run.max_retry_count),
        Text(shown_time(run.started_at, zone)),
        Text(shown_time(end[1], zone) if end else "", style=status_style(end[0]) if end else ""),
        Text(upcoming, style="yellow" if upcoming.startswith(("due ", "retry due ")) else ""),
        Text(shown_time(run.last_execution_at, zone)),
    ]


def render_runs_table(
    data: Mapping[str, Any],
    runs: Sequence[Any],
    *,
    now: datetime,
    note: str,
    zone: tzinfo | None = timezone.utc,
    width: int | None = None,
) -> tuple[RenderableType, list[str]]:
    """The runs as a table under a line naming the automation; a run's last error goes on
    a line of its own under it. Ids and times are shown whole: on a terminal ``width``
    wide the columns from the right that do not fit are left out, and returned by name."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    # ``runs`` may be a filtered subset of data's: the history is read for its automation
    # id only, and the runs one by one.
    history = RunHistory.read({**data, "runs": None})
    shown_runs = [AutomationRun.read(run) for run in runs]
    heading = Text.assemble(("Automation ", "bold"), (safe(history.automation_id), "bold"))
    names = {
        safe(run.automation.name)
        for run in shown_runs
        if run.automation is not None and run.automation.name
    }
    if len(names) == 1:
        heading.append(f" · {names.pop()}")
    heading.append(f" · {note}", style="dim")
    rows = [_row(run, now, zone) for run in shown_runs]
    shown = list(range(len(RUN_HEADERS)))
    widths: dict[int, int] = {}
    dropped: list[str] = []
    if width is not None:
        fit = fit_columns(
            [
                FitColumn(
                    title=title,
                    widths=[row[index].cell_len for row in rows],
                    keep_whole=title != "step" or not is_free_text([r[index].plain for r in rows]),
                    required=index == 0,
                )
                for index, title in enumerate(RUN_HEADERS)
            ],
            width,
        )
        shown, dropped = fit.shown, fit.dropped
        widths = {} if fit.too_wide else fit.widths
    table = Table(
        box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 2, 0, 0)
    )
    for index in shown:
        table.add_column(
            RUN_HEADERS[index],
            no_wrap=True,
            overflow="ellipsis",
            width=widths.get(index),
            justify="right" if RUN_HEADERS[index] == "retries" else "left",
        )
    for row in rows:
        table.add_row(*(row[index] for index in shown))
    notes = [_note(run) for run in shown_runs]
    run_width = max([len("run"), *(row[0].cell_len for row in rows)])
    return Group(heading, _RowsWithNotes(table, notes, indent=run_width + 2)), dropped


# -- one run -----------------------------------------------------------------------------


def _sort_key_time(value: str | None) -> float:
    moment = parse_instant(value)
    return moment.timestamp() if moment is not None else float("inf")


def _event_line(event: RunEvent, zone: tzinfo | None) -> Text:
    from rich.text import Text

    line = Text.assemble((moment(event.occurred_at, zone) or "?", "dim"), "  ")
    line.append(safe(event.event_type) or "event", style="bold")
    status = event.status
    display = event.status_display or status
    if display:
        line.append("  ")
        line.append(safe(display), style=status_style(status) or status_style(display))
    if event.summary:
        line.append(f"  {safe(event.summary)}")
    if event.reason_code:
        line.append(f"  [{safe(event.reason_code)}]", style="yellow")
    return line


def _action_label(
    action: RunAction, events: list[RunEvent], now: datetime, zone: tzinfo | None
) -> Text:
    from rich.text import Text

    order = action.step_order
    label = Text.assemble((f"{count(order)}. " if order is not None else "", "bold"))
    label.append(safe(action.step_display_name) or safe(action.step_id) or "step", "bold")
    kind = action.action_type_display or action.action_type
    if kind:
        label.append(f" · {safe(kind)}", style="dim")
    label.append("  ")
    label.append_text(_status_text(action))
    retries = action.retry_count
    if retries:
        label.append(f"  retries {count(retries)}", style="yellow")
    label.append(_action_times(action, now, zone), style="dim")
    failure = _error(action.failure_code, action.safe_reason)
    if failure:
        label.append(f"\n{failure}", style="red" if action.failure_code else "yellow")
    summary = safe(action.user_summary)
    # The action's own events often repeat its summary word for word: say it once.
    if summary and all(safe(event.summary) != summary for event in events):
        label.append(f"\n{summary}", style="italic")
    return label


def _action_times(action: RunAction, now: datetime, zone: tzinfo | None) -> str:
    """``  started Nov 21 14:03, completed after 2s, next retry in 25m``."""
    began = action.started_at
    parts = [f"started {moment(began, zone)}"] if began else []
    if not began and action.scheduled_at:
        parts.append(f"scheduled {moment(action.scheduled_at, zone)}")
        upcoming = short(action.scheduled_at, now)
        if upcoming.startswith("in "):
            parts[-1] += f" ({upcoming})"
    for when, word in (
        (action.completed_at, "completed"),
        (action.failed_at, "failed"),
        (action.skipped_at, "skipped"),
    ):
        if when:
            took = between(began, when) if began else None
            if took == "0s":
                parts.append(word)
            elif took:
                parts.append(f"{word} after {took}")
            else:
                parts.append(f"{word} {moment(when, zone)}")
    if action.next_retry_at:
        parts.append(f"next retry {_when_next(action.next_retry_at, now)}")
    return ("  " + ", ".join(parts)) if parts else ""


def _action_start(action: RunAction, events: list[RunEvent]) -> float:
    """When an action began, for placing run-level events between actions."""
    candidates = [
        _sort_key_time(when)
        for when in (action.scheduled_at, action.started_at, action.completed_at)
    ]
    candidates += [_sort_key_time(event.occurred_at) for event in events]
    return min(candidates, default=float("inf"))


def render_run_tree(
    data: Mapping[str, Any], *, now: datetime, zone: tzinfo | None = timezone.utc
) -> RenderableType:
    """One run: actions in step order, each with its events; events that belong to no
    action of the run hang from the run itself, placed in time between the actions."""
    from rich.tree import Tree

    run = AutomationRun.read(data)
    root = Tree(_run_label(run, now, zone), guide_style="dim")
    actions = sorted(run.actions or [], key=lambda a: (a.step_order is None, a.step_order or 0))
    events = sorted(run.events or [], key=lambda e: _sort_key_time(e.occurred_at))
    by_action: dict[str, list[RunEvent]] = {}
    known = {safe(a.id) for a in actions if a.id}
    loose: list[RunEvent] = []
    for event in events:
        owner = safe(event.action_id)
        if owner and owner in known:
            by_action.setdefault(owner, []).append(event)
        elif owner:
            # An action the run no longer lists: keep the event, and say whose it was.
            summary = f"{safe(event.summary)} (action {owner})"
            loose.append(event.model_copy(update={"summary": summary}))
        else:
            loose.append(event)
    pending = list(loose)
    for action in actions:
        own = by_action.get(safe(action.id), [])
        start = _action_start(action, own)
        # A run event at the very moment an action starts ("run started") comes first.
        while pending and _sort_key_time(pending[0].occurred_at) <= start:
            root.add(_event_line(pending.pop(0), zone))
        branch = root.add(_action_label(action, own, now, zone))
        for own_event in own:
            branch.add(_event_line(own_event, zone))
    for late in pending:
        root.add(_event_line(late, zone))
    if not actions and not events:
        from rich.text import Text

        root.add(Text("no actions or events recorded", style="dim"))
    return root


def _run_label(run: AutomationRun, now: datetime, zone: tzinfo | None) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    title = Text.assemble(("Run ", "bold"), (safe(run.id), "bold"), "  ")
    title.append_text(_status_text(run))
    owner = Text("", style="dim")
    automation = run.automation
    if automation is not None:
        name = safe(automation.name)
        ident = safe(automation.id)
        owner.append(f"automation {name} ({ident})" if name else f"automation {ident}")
    if run.lead_id:
        owner.append(f"{' · ' if owner else ''}lead {safe(run.lead_id)}")
    lines: list[RenderableType] = [title]
    if owner:
        lines.append(owner)
    trigger = run.trigger_display or run.trigger_type
    if trigger:
        lines.append(Text(f"trigger {safe(trigger)}", style="dim"))
    times = []
    if run.started_at:
        times.append(f"started {readable(run.started_at, now, zone)}")
    end = ending(run)
    if end:
        times.append(f"{end[0]} {readable(end[1], now, zone)}")
    elif run.last_execution_at:
        times.append(f"last run {readable(run.last_execution_at, now, zone)}")
    if times:
        lines.append(Text(" · ".join(times), style="dim"))
    progress = Text("")
    step = _step(run)
    if step:
        progress.append(f"current step {step}")
    retries = _retries(run.retry_count, run.max_retry_count)
    if retries:
        progress.append(f"{'   ' if progress else ''}retries ")
        progress.append_text(retries)
    upcoming = _next(run, now, zone)
    if upcoming:
        progress.append(f"{'   ' if progress else ''}next ")
        progress.append(upcoming, style="yellow" if "due " in upcoming else "")
    if progress:
        lines.append(progress)
    error = _error(run.last_error_code, run.last_error_message)
    if error:
        lines.append(Text.assemble("last error ", (error, "red")))
    skip = run.skip_reason_display or run.skip_reason_code
    if skip:
        lines.append(Text(f"skipped: {safe(skip)}", style="yellow"))
    if run.last_action_summary:
        lines.append(Text.assemble("last action ", (safe(run.last_action_summary), "italic")))
    return Group(*lines)


# -- one line a change (a watched run, piped) ----------------------------------------------


def run_change_line(data: Mapping[str, Any], *, zone: tzinfo | None = timezone.utc) -> str:
    """One state of a watched run as one line of words: when it last acted, its status,
    its step and what it last did (or its error)::

        2026-11-21 14:03 UTC  Running  step 2. Wait 1 day  Send welcome SMS: completed
    """
    run = AutomationRun.read(data)
    end = ending(run)
    when = end[1] if end else run.last_execution_at or run.updated_at or run.started_at
    step = "" if end else _step(run)
    parts = [
        shown_time(when, zone),
        safe(run.status_display or run.status) or MISSING,
        step if not step or step.startswith("step ") else f"step {step}",
        _error(run.last_error_code, run.last_error_message) or safe(run.last_action_summary),
    ]
    return "  ".join(part for part in parts if part)
