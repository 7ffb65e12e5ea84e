"""``automations runs`` for a person: a table of runs, and one run as a tree of its actions
with their events.

Run, action and event status values are not enumerated by the reference: colors come
from what the words say (see :func:`~leadctl.views.widgets.status_style`) and the words
themselves are always printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

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


def _next(run: Mapping[str, Any], now: datetime) -> str:
    if run.get("nextRetryAt"):
        return f"retry {_when_next(run.get('nextRetryAt'), now)}"
    if run.get("nextExecutionAt"):
        return _when_next(run.get("nextExecutionAt"), now)
    return ""


# -- the list ----------------------------------------------------------------------------

# Ids longer than this are shown by their first SHORT_ID characters, like git's short
# hashes: two UUIDs per row would leave no room for anything else. `--run` takes a
# unique prefix.
LONG_ID = 12
SHORT_ID = 8


def short_id(value: Any) -> str:
    text = safe(value)
    return text[:SHORT_ID] if len(text) > LONG_ID else text


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


def render_runs_table(
    data: Mapping[str, Any], runs: Sequence[Mapping[str, Any]], *, now: datetime, note: str
) -> RenderableType:
    """The runs as a table under a line naming the automation; a run's last error goes on
    a line of its own under it."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    heading = Text.assemble(("Automation ", "bold"), (safe(data.get("automationId")), "bold"))
    names = {
        safe(run["automation"].get("name"))
        for run in runs
        if isinstance(run.get("automation"), dict) and run["automation"].get("name")
    }
    if len(names) == 1:
        heading.append(f" · {names.pop()}")
    heading.append(f" · {note}", style="dim")
    table = Table(
        box=None, pad_edge=False, show_edge=False, header_style="bold", padding=(0, 2, 0, 0)
    )
    table.add_column("run", no_wrap=True)
    table.add_column("status", no_wrap=True, overflow="ellipsis", max_width=18)
    table.add_column("lead", no_wrap=True)
    table.add_column("step", no_wrap=True, overflow="ellipsis", max_width=26)
    table.add_column("retries", no_wrap=True, justify="right")
    table.add_column("started", no_wrap=True)
    table.add_column("last run", no_wrap=True)
    table.add_column("next", no_wrap=True)
    table.add_column("ended", no_wrap=True)
    notes: list[Text | None] = []
    for run in runs:
        end = ending(run)
        table.add_row(
            Text(short_id(run.get("id"))),
            _status_text(run),
            Text(short_id(run.get("leadId"))),
            Text(_step(run)),
            _retries(run),
            Text(short(run.get("startedAt"), now)),
            Text(short(run.get("lastExecutionAt"), now)),
            Text(_next(run, now), style="yellow" if "due " in _next(run, now) else ""),
            Text(short(end[1], now) if end else "", style=status_style(end[0]) if end else ""),
        )
        notes.append(_note(run))
    run_width = max([len("run"), *(len(short_id(run.get("id"))) for run in runs)])
    return Group(heading, _RowsWithNotes(table, notes, indent=run_width + 2))


# -- one run -----------------------------------------------------------------------------


def _sort_key_time(value: Any) -> float:
    moment = parse_instant(value)
    return moment.timestamp() if moment is not None else float("inf")


def _event_line(event: Mapping[str, Any]) -> Text:
    from rich.text import Text

    line = Text.assemble((moment(event.get("occurredAt")) or "?", "dim"), "  ")
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
    action: Mapping[str, Any], events: list[Mapping[str, Any]], now: datetime
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
    label.append(_action_times(action, now), style="dim")
    failure = _error(action, "failureCode", "safeReason")
    if failure:
        label.append(f"\n{failure}", style="red" if action.get("failureCode") else "yellow")
    summary = safe(action.get("userSummary"))
    # The action's own events often repeat its summary word for word: say it once.
    if summary and all(safe(event.get("summary")) != summary for event in events):
        label.append(f"\n{summary}", style="italic")
    return label


def _action_times(action: Mapping[str, Any], now: datetime) -> str:
    """``  started Nov 21 14:03, completed after 2s, next retry in 25m``."""
    began = action.get("startedAt")
    parts = [f"started {moment(began)}"] if began else []
    if not began and action.get("scheduledAt"):
        parts.append(f"scheduled {moment(action.get('scheduledAt'))}")
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
                parts.append(f"{word} {moment(action.get(key))}")
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


def render_run_tree(run: Mapping[str, Any], *, now: datetime) -> RenderableType:
    """One run: actions in step order, each with its events; events that belong to no
    action of the run hang from the run itself, placed in time between the actions."""
    from rich.tree import Tree

    root = Tree(_run_label(run, now), guide_style="dim")
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
            root.add(_event_line(pending.pop(0)))
        branch = root.add(_action_label(action, own, now))
        for own_event in own:
            branch.add(_event_line(own_event))
    for late in pending:
        root.add(_event_line(late))
    if not actions and not events:
        from rich.text import Text

        root.add(Text("no actions or events recorded", style="dim"))
    return root


def _run_label(run: Mapping[str, Any], now: datetime) -> RenderableType:
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
        times.append(f"started {readable(run.get('startedAt'), now)}")
    end = ending(run)
    if end:
        times.append(f"{end[0]} {readable(end[1], now)}")
    elif run.get("lastExecutionAt"):
        times.append(f"last run {readable(run.get('lastExecutionAt'), now)}")
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
    upcoming = _next(run, now)
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
