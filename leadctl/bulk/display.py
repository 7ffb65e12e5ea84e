"""What a person sees while an import runs: a progress bar on a terminal, else nothing but
the lines about rows that were not created (when there is no report file to hold them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from leadctl.bulk.report import OUTCOMES, SUCCESSES, Outcome
from leadctl.iostreams import safe_text

if TYPE_CHECKING:
    from leadctl.iostreams import IOStreams

# Per-row lines on stderr when no --report keeps them; the rest are counted.
NOTE_LIMIT = 20


def describe(outcome: Outcome, noun: str = "row") -> str:
    """One line for a row that was not created, e.g. ``row 7: rejected: 400 Bad Request``."""
    error = outcome.error or {}
    parts = [str(error[key]) for key in ("status", "title") if error.get(key) is not None]
    text = " ".join(parts)
    detail = error.get("detail")
    if detail and detail != error.get("title"):
        text = f"{text}: {detail}" if text else str(detail)
    fields = error.get("errors")
    if isinstance(fields, dict) and fields:
        shown = "; ".join(f"{name}: {_first(messages)}" for name, messages in fields.items())
        text = f"{text} ({shown})"
    suffix = f": {text}" if text else ""
    return f"{noun} {outcome.row}: {outcome.outcome}{suffix}"


def _first(messages: Any) -> str:
    if isinstance(messages, list) and messages:
        return str(messages[0])
    return str(messages)


class Display:
    """Notes on stderr; subclasses draw progress."""

    def __init__(
        self, ios: IOStreams, *, notes: bool, noun: str = "row", label: str = "importing"
    ) -> None:
        self._ios = ios
        self._notes = notes
        self._noun = noun
        self._label = label
        self.notes_left_out = 0
        self._noted = 0

    def start(self, total: int | None) -> None:
        return None

    def outcome(self, outcome: Outcome, *, rate_limited: int) -> None:
        if outcome.outcome in SUCCESSES or not self._notes:
            return
        if self._noted >= NOTE_LIMIT:
            self.notes_left_out += 1
            return
        self._noted += 1
        self.note(describe(outcome, self._noun))

    def note(self, line: str) -> None:
        self._ios.info(line)

    def stop(self) -> None:
        if self.notes_left_out:
            self._ios.info(
                f"… and {self.notes_left_out} more {self._noun}s that did not succeed "
                "(pass --report FILE to keep every outcome)"
            )


class ProgressDisplay(Display):
    """A rich progress bar on stderr, erased when the import ends."""

    def __init__(
        self, ios: IOStreams, *, notes: bool, noun: str = "row", label: str = "importing"
    ) -> None:
        super().__init__(ios, notes=notes, noun=noun, label=label)
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn(self._label),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=ios.console(stderr=True),
            transient=True,
        )
        self._task: Any = None
        self._counts = dict.fromkeys(OUTCOMES, 0)

    def start(self, total: int | None) -> None:
        self._task = self._progress.add_task("import", total=total, counts="")
        self._progress.start()

    def outcome(self, outcome: Outcome, *, rate_limited: int) -> None:
        self._counts[outcome.outcome] += 1
        counts = ", ".join(f"{n} {name}" for name, n in self._counts.items() if n)
        if rate_limited:
            counts += f", {rate_limited} refused (429)"
        self._progress.update(self._task, advance=1, counts=counts)
        super().outcome(outcome, rate_limited=rate_limited)

    def note(self, line: str) -> None:
        # The line quotes the service's problem document: shown, never acted on.
        self._progress.console.print(safe_text(line), markup=False, highlight=False, soft_wrap=True)

    def stop(self) -> None:
        self._progress.stop()
        super().stop()
