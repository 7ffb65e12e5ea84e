"""``automations runs`` for a person: a table of runs, and one run as a tree of its actions
with their events.

Run, action and event status values are not enumerated by the reference: colors come
from what the words say (see :func:`~leadctl.views.widgets.status_style`) and the words
themselves are always printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone, tzinfo
from typing import TYPE_CHECKING, Any

from leadctl.output.cells import format_datetime
from leadctl.views.timefmt import between, moment, parse_instant, readable, short
from leadctl.views.widgets import MISSING, count, number, safe, status_style

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

# The run field that says when (and how) a run ended, in the order they are checked.
ENDINGS = (("completedAt", "completed"), ("failedAt", "failed"), ("cancelledAt", "cancelled"))


def _status_text(item: Mapping[str, Any]) -> Text:
    from rich.text import Text

    status = item.get("status")
    display = item.get("statusDisplay") or status
    return Text(safe(display) or MISSING, style=status_style(status) or status_style(display))


def _retries(item: Mapping[str, Any]) -> Text:
    from rich.text import Text

    done = number(item.get("retryCount"))
    most = number(item.get("maxRetryCount"))
    if done is None and most is None:
        return Text("")
    text = f"{count(done)}/{count(most)}" if most is not None else count(done)
    style = ""
    if done:
        style = "red" if most is not None and done >= most else "yellow"
    return Text(text, style=style)


def _step(run: Mapping[str, Any]) -> str:
    step = run.get("currentStep")
    name = safe(step.get("name")) if isinstance(step, dict) else ""
    order = number(run.get("currentStepOrder"))
    if order is None:
        return name
    return f"{count(order)}. {name}" if name else f"step {count(order)}"


def _error(item: Mapping[str, Any], code_key: str, message_key: str) -> str:
    code = safe(item.get(code_key))
    message = safe(item.get(message_key))
    return f"{code}: {message}" if code and message else code or message


def ending(run: Mapping[str, Any]) -> tuple[str, Any] | None:
    """Which end the run reached and when, if any."""
    for key, word in ENDINGS:
        if run.get(key):
            return word, run.get(key)
    return None


def _when_next(value: Any, now: datetime) -> str:
    """``in 5m``, or ``due 3h ago`` for a time already passed (the run is behind)."""
    text = short(value, now)
    return f"due {text}" if text.endswith(" ago") else text


def shown_time(value: Any, zone: tzinfo | None) -> str:
    """A time the way every table shows it (``2026-11-21 14:03 UTC``, in ``zone``)."""
    if value is None:
        return ""
    return format_datetime(str(value), zone)


def _next(run: Mapping[str, Any], now: datetime, zone: tzinfo | None) -> str:
    """When the run acts next, as a time; ``due`` when that time has passed (the run is
    behind)."""
    for key, word in (("nextRetryAt", "retry "), ("nextExecutionAt", "")):
        value = run.get(key)
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


def _note(run: Mapping[str, Any]) -> Text | None:
    """The line under a run: its last error, else why it was skipped."""
    from rich.text import Text

    error = _error(run, "lastErrorCode", "lastErrorMessage")
    skip = safe(run.get("skipReasonDisplay") or run.get("skipReasonCode"))
    if not error and not skip:
        return None
    text, style = (f"↳ {error}", "red") if error else (f"↳ skipped: {skip}", "yellow")
    return Text(text, style=style, no_wrap=True, overflow="ellipsis")


def _row(run: Mapping[str, Any], now: datetime, zone: tzinfo | None) -> list[Text]:
    from rich.text import Text

    end = ending(run)
    upcoming = _next(run, now, zone)
    return [
        Text(safe(run.get("id"))),
        _status_text(run),
        Text(safe(run.get("leadId"))),
        Text(_step(run)),
        _retries(run),
        Text(shown_time(run.get("startedAt"), zone)),
        Text(shown_time(end[1], zone) if end else "", style=status_style(end[0]) if end else ""),
        Text(upcoming, style="yellow" if upcoming.startswith(("due ", "retry due ")) else ""),
        Text(shown_time(run.get("lastExecutionAt"), zone)),
    ]


def render_runs_table(
    data: Mapping[str, Any],
    runs: Sequence[Mapping[str, Any]],
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

    from leadctl.output.fit import FitColumn, fit_columns, is_free_text

    heading = Text.assemble(("Automation ", "bold"), (safe(data.get("automationId")), "bold"))
    names = {
        safe(run["automation"].get("name"))
        for run in runs
        if isinstance(run.get("automation"), dict) and run["automation"].get("name")
    }
    if len(names) == 1:
        heading.append(f" · {names.pop()}")
    heading.append(f" · {note}", style="dim")
    rows = [_row(run, now, zone) for run in runs]
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
    notes = [_note(run) for run in runs]
    run_width = max([len("run"), *(row[0].cell_len for row in rows)])
    return Group(heading, _RowsWithNotes(table, notes, indent=run_width + 2)), dropped


# -- one run -----------------------------------------------------------------------------


def _sort_key_time(value: Any) -> float:
    moment = parse_instant(value)
    return moment.timestamp() if moment is not None else float("inf")


def _event_line(event: Mapping[str, Any], zone: tzinfo | None) -> Text:
    from rich.text import Text

    line = Text.assemble((moment(event.get("occurredAt"), zone) or "?", "dim"), "  ")
    line.append(safe(event.get("eventType")) or "event", style="bold")
    status = event.get("status")
    display = event.get("statusDisplay") or status
    if display:
        line.append("  ")
        line.append(safe(display), style=status_style(status) or status_style(display))
    if event.get("summary"):
        line.append(f"  {safe(event.get('summary'))}")
    if event.get("reasonCode"):
        line.append(f"  [{safe(event.get('reasonCode'))}]", style="yellow")
    return line


def _action_label(
    action: Mapping[str, Any],
    events: list[Mapping[str, Any]],
    now: datetime,
    zone: tzinfo | None,
) -> Text:
    from rich.text import Text

    order = number(action.get("stepOrder"))
    label = Text.assemble((f"{count(order)}. " if order is not None else "", "bold"))
    label.append(
        safe(action.get("stepDisplayName")) or safe(action.get("stepId")) or "step", "bold"
    )
    kind = action.get("actionTypeDisplay") or action.get("actionType")
    if kind:
        label.append(f" · {safe(kind)}", style="dim")
    label.append("  ")
    label.append_text(_status_text(action))
    retries = number(action.get("retryCount"))
    if retries:
        label.append(f"  retries {count(retries)}", style="yellow")
    label.append(_action_times(action, now, zone), style="dim")
    failure = _error(action, "failureCode", "safeReason")
    if failure:
        label.append(f"\n{failure}", style="red" if action.get("failureCode") else "yellow")
    summary = safe(action.get("userSummary"))
    # The action's own events often repeat its summary word for word: say it once.
    if summary and all(safe(event.get("summary")) != summary for event in events):
        label.append(f"\n{summary}", style="italic")
    return label


def _action_times(action: Mapping[str, Any], now: datetime, zone: tzinfo | None) -> str:
    """``  started Nov 21 14:03, completed after 2s, next retry in 25m``."""
    began = action.get("startedAt")
    parts = [f"started {moment(began, zone)}"] if began else []
    if not began and action.get("scheduledAt"):
        parts.append(f"scheduled {moment(action.get('scheduledAt'), zone)}")
        upcoming = short(action.get("scheduledAt"), now)
        if upcoming.startswith("in "):
            parts[-1] += f" ({upcoming})"
    for key, word in (
        ("completedAt", "completed"),
        ("failedAt", "failed"),
        ("skippedAt", "skipped"),
    ):
        if action.get(key):
            took = between(began, action.get(key)) if began else None
            if took == "0s":
                parts.append(word)
            elif took:
                parts.append(f"{word} after {took}")
            else:
                parts.append(f"{word} {moment(action.get(key), zone)}")
    if action.get("nextRetryAt"):
        parts.append(f"next retry {_when_next(action.get('nextRetryAt'), now)}")
    return ("  " + ", ".join(parts)) if parts else ""


def _action_start(action: Mapping[str, Any], events: list[Mapping[str, Any]]) -> float:
    """When an action began, for placing run-level events between actions."""
    candidates = [
        _sort_key_time(action.get(key)) for key in ("scheduledAt", "startedAt", "completedAt")
    ]
    candidates += [_sort_key_time(event.get("occurredAt")) for event in events]
    return min(candidates, default=float("inf"))


def render_run_tree(
    run: Mapping[str, Any], *, now: datetime, zone: tzinfo | None = timezone.utc
) -> RenderableType:
    """One run: actions in step order, each with its events; events that belong to no
    action of the run hang from the run itself, placed in time between the actions."""
    from rich.tree import Tree

    root = Tree(_run_label(run, now, zone), guide_style="dim")
    actions = sorted(
        (a for a in run.get("actions") or [] if isinstance(a, dict)),
        key=lambda a: (number(a.get("stepOrder")) is None, number(a.get("stepOrder")) or 0),
    )
    events = sorted(
        (e for e in run.get("events") or [] if isinstance(e, dict)),
        key=lambda e: _sort_key_time(e.get("occurredAt")),
    )
    by_action: dict[str, list[Mapping[str, Any]]] = {}
    known = {safe(a.get("id")) for a in actions if a.get("id")}
    loose: list[Mapping[str, Any]] = []
    for event in events:
        owner = safe(event.get("actionId"))
        if owner and owner in known:
            by_action.setdefault(owner, []).append(event)
        elif owner:
            # An action the run no longer lists: keep the event, and say whose it was.
            loose.append({**event, "summary": f"{safe(event.get('summary'))} (action {owner})"})
        else:
            loose.append(event)
    pending = list(loose)
    for action in actions:
        own = by_action.get(safe(action.get("id")), [])
        start = _action_start(action, own)
        # A run event at the very moment an action starts ("run started") comes first.
        while pending and _sort_key_time(pending[0].get("occurredAt")) <= start:
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


def _run_label(run: Mapping[str, Any], now: datetime, zone: tzinfo | None) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    title = Text.assemble(("Run ", "bold"), (safe(run.get("id")), "bold"), "  ")
    title.append_text(_status_text(run))
    owner = Text("", style="dim")
    automation = run.get("automation")
    if isinstance(automation, dict):
        name = safe(automation.get("name"))
        ident = safe(automation.get("id"))
        owner.append(f"automation {name} ({ident})" if name else f"automation {ident}")
    if run.get("leadId"):
        owner.append(f"{' · ' if owner else ''}lead {safe(run.get('leadId'))}")
    lines: list[RenderableType] = [title]
    if owner:
        lines.append(owner)
    trigger = run.get("triggerDisplay") or run.get("triggerType")
    if trigger:
        lines.append(Text(f"trigger {safe(trigger)}", style="dim"))
    times = []
    if run.get("startedAt"):
        times.append(f"started {readable(run.get('startedAt'), now, zone)}")
    end = ending(run)
    if end:
        times.append(f"{end[0]} {readable(end[1], now, zone)}")
    elif run.get("lastExecutionAt"):
        times.append(f"last run {readable(run.get('lastExecutionAt'), now, zone)}")
    if times:
        lines.append(Text(" · ".join(times), style="dim"))
    progress = Text("")
    step = _step(run)
    if step:
        progress.append(f"current step {step}")
    retries = _retries(run)
    if retries:
        progress.append(f"{'   ' if progress else ''}retries ")
        progress.append_text(retries)
    upcoming = _next(run, now, zone)
    if upcoming:
        progress.append(f"{'   ' if progress else ''}next ")
        progress.append(upcoming, style="yellow" if "due " in upcoming else "")
    if progress:
        lines.append(progress)
    error = _error(run, "lastErrorCode", "lastErrorMessage")
    if error:
        lines.append(Text.assemble("last error ", (error, "red")))
    skip = run.get("skipReasonDisplay") or run.get("skipReasonCode")
    if skip:
        lines.append(Text(f"skipped: {safe(skip)}", style="yellow"))
    if run.get("lastActionSummary"):
        lines.append(Text.assemble("last action ", (safe(run.get("lastActionSummary")), "italic")))
    return Group(*lines)
