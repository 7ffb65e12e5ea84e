"""The report of a bulk run (``leads import``, ``batch``): one NDJSON line per outcome of
an input row or line, appended as outcomes arrive.

    {"row": 12, "outcome": "created", "id": "…", "error": null, "digest": "…"}

``outcome`` is ``created`` (import) or ``ok`` (batch): the service answered 2xx, ``id`` is
the answer's id when it has one; ``rejected`` (it answered an error: ``error`` is its
problem document), ``invalid`` (never sent: ``error.detail`` says why) or ``unknown`` (the
request was sent and no answer arrived, or a 5xx did: it may have taken effect).
``digest`` fingerprints the row's text. A batch adds ``status`` (the HTTP status) and
``result`` (the answer's JSON body); a line sent with an idempotency key adds ``key``.

Each line is written with a single ``write(2)`` on a file opened with O_APPEND, so lines
from concurrent workers (or two imports sharing a report) never interleave, and a crash
leaves at most one partial last line, which --resume ignores.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from leadctl.errors import UsageError

OUTCOMES = ("created", "ok", "rejected", "invalid", "unknown")
# Outcomes that mean the request took effect: never sent again by --resume.
SUCCESSES = frozenset({"created", "ok"})


@dataclass(frozen=True)
class Outcome:
    row: int
    outcome: str
    digest: str
    id: str | None = None
    error: dict[str, Any] | None = None
    status: int | None = None
    result: Any = None
    key: str | None = None

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "row": self.row,
            "outcome": self.outcome,
            "id": self.id,
            "error": self.error,
            "digest": self.digest,
        }
        if self.status is not None:
            line["status"] = self.status
            line["result"] = self.result
        if self.key is not None:
            line["key"] = self.key
        return line


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class ReportWriter:
    """Appends outcome lines to a file (or a stream, for ``--report -``)."""

    def __init__(self, *, path: Path | None = None, stream: TextIO | None = None) -> None:
        self._lock = threading.Lock()
        self._stream = stream
        self._fd: int | None = None
        self.path = path
        if path is not None:
            try:
                self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
            except OSError as error:
                raise UsageError(
                    f"cannot write the report {path}: {error.strerror or error}"
                ) from None

    def write(self, outcome: Outcome) -> None:
        line = _ENCODER.encode(outcome.to_json()) + "\n"
        with self._lock:
            if self._fd is not None:
                data = line.encode("utf-8")
                while data:
                    written = os.write(self._fd, data)
                    data = data[written:]
            elif self._stream is not None:
                self._stream.write(line)
                self._stream.flush()

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


@dataclass
class ResumeState:
    """What an earlier report says about each row: the rows not to send again."""

    # row -> (outcome that decides, digest of the row then)
    rows: dict[int, tuple[str, str]] = field(default_factory=dict)
    # row -> the idempotency key it was sent with (sent again with the same key)
    keys: dict[int, str] = field(default_factory=dict)
    unreadable_lines: int = 0

    def skip_reason(self, row: int, *, retry_unknown: bool) -> tuple[str, str] | None:
        """(outcome, digest) when ``row`` must not be sent again, else None."""
        found = self.rows.get(row)
        if found is None:
            return None
        outcome = found[0]
        if outcome in SUCCESSES or (outcome == "unknown" and not retry_unknown):
            return found
        return None


def read_resume(path: Path) -> ResumeState:
    """Fold a report into one decisive outcome per row: ``created`` once seen stays (the
    lead exists), otherwise the latest line wins."""
    state = ResumeState()
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise UsageError(f"--resume {path}: no such report") from None
    except OSError as error:
        raise UsageError(f"--resume {path}: {error.strerror or error}") from None
    with handle:
        for record in _records(handle, state):
            row, outcome, digest, key = record
            if key is not None:
                state.keys.setdefault(row, key)
            known = state.rows.get(row)
            if known is not None and known[0] in SUCCESSES:
                continue
            state.rows[row] = (outcome, digest)
    return state


def _records(handle: Any, state: ResumeState) -> Iterator[tuple[int, str, str, str | None]]:
    for raw in handle:
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            state.unreadable_lines += 1
            continue
        row = record.get("row") if isinstance(record, dict) else None
        outcome = record.get("outcome") if isinstance(record, dict) else None
        if not isinstance(row, int) or isinstance(row, bool) or outcome not in OUTCOMES:
            state.unreadable_lines += 1
            continue
        digest = record.get("digest")
        key = record.get("key")
        yield (
            row,
            str(outcome),
            digest if isinstance(digest, str) else "",
            key if isinstance(key, str) else None,
        )
