"""The report of a bulk run (``leads import``, ``batch``): NDJSON lines, appended as the run
goes, that say what happened to each input row or line.

    {"row": 12, "outcome": "sending", "id": null, "error": null, "digest": "…", "key": "…"}
    {"row": 12, "outcome": "created", "id": "…", "error": null, "digest": "…", "key": "…"}

``row`` is the input's row (line) number and ``params`` its path parameters (a batch line's
identity, e.g. ``{"id": "lead_1"}``: the answer's ``id`` is null after a DELETE).

``sending`` is written (and, for an operation that may act twice, flushed to disk) before the
line's first request leaves, with the idempotency key it is sent with, if any: a run killed
in mid-request leaves the line ``sending``, which --resume reads as unknown, and a resend
repeats its key. ``outcome`` then settles it:

- ``created`` (import) or ``ok`` (batch): the service answered 2xx; ``id`` is the answer's id;
- ``rejected``: it answered an error (``error`` is its problem document), or refused (429)
  for an hour;
- ``invalid``: never sent (``error.detail`` says why);
- ``unknown``: sent, and no answer arrived, or a 5xx did, or the run was interrupted while
  it was out or waiting to be sent again: it may have taken effect;
- ``unsent``: the run stopped before the service could act on it (only refused, or never
  connected): --resume sends it (with its key).

A batch adds ``status`` (the HTTP status) and ``result`` (the answer's JSON body).

Each line is written with a single ``write(2)`` on a file opened with O_APPEND, so lines
from concurrent workers never interleave, and a crash leaves at most one partial last line,
which --resume ignores (and ends, before appending, so the next line stays whole). One run
at a time may use a report: :func:`holding_reports` locks it.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from leadctl.errors import UsageError

SENDING = "sending"
UNSENT = "unsent"
UNKNOWN = "unknown"
OUTCOMES = ("created", "ok", "rejected", "invalid", UNKNOWN, UNSENT)
# Outcomes that mean the request took effect: never sent again by --resume.
SUCCESSES = frozenset({"created", "ok"})
LOCK_SUFFIX = ".lock"


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
    params: Mapping[str, str] | None = None  # the line's path parameters

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "row": self.row,
            "outcome": self.outcome,
            "id": self.id,
            "error": self.error,
            "digest": self.digest,
        }
        if self.params:
            line["params"] = dict(self.params)
        if self.status is not None:
            line["status"] = self.status
            line["result"] = self.result
        if self.key is not None:
            line["key"] = self.key
        return line


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class ReportWriter:
    """Appends lines to a report file, or outcomes to a stream (``--report -``: a stream's
    reader wants answers, so it gets no ``sending`` lines)."""

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
            self._end_partial_line(path)

    def _end_partial_line(self, path: Path) -> None:
        """A crash can leave a partial last line; the next line must not be glued to it
        (--resume would lose both)."""
        if not _ends_mid_line(path):
            return
        assert self._fd is not None
        os.write(self._fd, b"\n")

    def sending(self, outcome: Outcome, *, durable: bool) -> None:
        """Record that ``outcome.row`` is about to be sent (``outcome.outcome`` is
        ``sending``); ``durable``: on disk before this returns (fsync), for a request that
        must never be sent twice unknowingly."""
        with self._lock:
            if self._fd is None:
                return
            self._append(outcome)
            # A copy of the descriptor, so close() cannot pull it from under the fsync.
            synced = os.dup(self._fd) if durable else None
        if synced is not None:
            # Outside the lock: concurrent workers' fsyncs of one file coalesce (one worker
            # alone waits ~6 ms a line on this machine; four share one flush).
            try:
                os.fsync(synced)
            finally:
                os.close(synced)

    def write(self, outcome: Outcome) -> None:
        with self._lock:
            if self._fd is not None:
                self._append(outcome)
            elif self._stream is not None:
                self._stream.write(_ENCODER.encode(outcome.to_json()) + "\n")
                self._stream.flush()

    def _append(self, outcome: Outcome) -> None:
        assert self._fd is not None
        data = (_ENCODER.encode(outcome.to_json()) + "\n").encode("utf-8")
        while data:
            written = os.write(self._fd, data)
            data = data[written:]

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def _ends_mid_line(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            if handle.seek(0, os.SEEK_END) == 0:
                return False
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) != b"\n"
    except OSError:
        return False


@contextlib.contextmanager
def holding_reports(paths: Iterable[Path]) -> Iterator[None]:
    """Hold each report's lock (``REPORT.lock`` beside it) for a whole run: two runs on
    one report would both send every line not yet done. The lock is the OS's (flock), so
    a run that was killed holds nothing; a report another live run holds is exit 2."""
    with contextlib.ExitStack() as stack:
        held: set[Path] = set()
        for path in paths:
            resolved = path.resolve()
            if resolved not in held:
                held.add(resolved)
                stack.enter_context(_holding(path))
        yield


@contextlib.contextmanager
def _holding(path: Path) -> Iterator[None]:
    from filelock import FileLock, Timeout

    lock_path = path.with_name(path.name + LOCK_SUFFIX)
    lock = FileLock(str(lock_path), timeout=0, mode=0o600)
    try:
        lock.acquire()
    except Timeout:
        raise UsageError(
            f"the report {path} is in use by another leadctl run",
            hint="wait for that run to finish (or stop it), then go on with --resume",
        ) from None
    except OSError as error:
        raise UsageError(
            f"cannot lock the report {path} ({lock_path}): {error.strerror or error}"
        ) from None
    try:
        yield
    finally:
        lock.release()


@dataclass
class ResumeState:
    """What an earlier report says about each row: the rows not to send again."""

    # row -> (outcome that decides, digest of the row then)
    rows: dict[int, tuple[str, str]] = field(default_factory=dict)
    # row -> the idempotency key it was sent with (sent again with the same key)
    keys: dict[int, str] = field(default_factory=dict)

    def skip_reason(self, row: int, *, retry_unknown: bool) -> tuple[str, str] | None:
        """(outcome, digest) when ``row`` must not be sent again, else None."""
        found = self.rows.get(row)
        if found is None:
            return None
        outcome = found[0]
        if outcome in SUCCESSES or (outcome == UNKNOWN and not retry_unknown):
            return found
        return None


def read_resume(path: Path) -> ResumeState:
    """Fold a report into one decisive outcome per row: ``created``/``ok`` once seen stays
    (it took effect), otherwise the latest line wins; a row whose latest line is
    ``sending`` was interrupted without a trace (a crash): unknown."""
    state = ResumeState()
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise UsageError(f"--resume {path}: no such report") from None
    except OSError as error:
        raise UsageError(f"--resume {path}: {error.strerror or error}") from None
    with handle:
        for record in _records(handle):
            row, outcome, digest, key = record
            if key is not None:
                state.keys.setdefault(row, key)
            known = state.rows.get(row)
            if known is not None and known[0] in SUCCESSES:
                continue
            state.rows[row] = (UNKNOWN if outcome == SENDING else outcome, digest)
    return state


def _records(handle: Any) -> Iterator[tuple[int, str, str, str | None]]:
    for raw in handle:
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        row = record.get("row") if isinstance(record, dict) else None
        outcome = record.get("outcome") if isinstance(record, dict) else None
        if (
            not isinstance(row, int)
            or isinstance(row, bool)
            or (outcome not in OUTCOMES and outcome != SENDING)
        ):
            continue
        digest = record.get("digest")
        key = record.get("key")
        yield (
            row,
            str(outcome),
            digest if isinstance(digest, str) else "",
            key if isinstance(key, str) else None,
        )
