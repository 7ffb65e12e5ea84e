"""The one-line progress of ``--all`` on stderr: count, pages, rate, elapsed time.

The line is redrawn in place (at most ten times a second) and erased when paging ends,
however it ends: a closed pipe (``| head -1``), an error or Ctrl-C leave nothing behind.
Messages written meanwhile (retry notes, from the thread that fetches the next page) go
through :meth:`ProgressLine.write_above`: the line is erased, the message printed on a
line of its own, and the progress redrawn under it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

REDRAW_EVERY = 0.1
ERASE = "\r\x1b[K"


def elapsed_text(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


class ProgressLine:
    def __init__(self, stream: TextIO, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._clock = clock
        self._lock = threading.Lock()
        self._started = clock()
        self._drawn_at: float | None = None
        self._text = ""
        self._shown = False
        self._closed = False

    def text(self, items: int, pages: int) -> str:
        elapsed = self._clock() - self._started
        rate = f", {items / elapsed:,.0f} items/s" if elapsed >= 1 else ""
        return f"{_count(items, 'item')}, {_count(pages, 'page')}{rate}, {elapsed_text(elapsed)}"

    def update(self, items: int, pages: int, *, force: bool = False) -> None:
        now = self._clock()
        if not force and self._drawn_at is not None and now - self._drawn_at < REDRAW_EVERY:
            return
        with self._lock:
            if self._closed:
                return
            self._drawn_at = now
            self._text = self.text(items, pages)
            self._write(ERASE + self._text)
            self._shown = True

    def write_above(self, text: str) -> None:
        with self._lock:
            erase = ERASE if self._shown else ""
            redraw = self._text if self._shown and not self._closed else ""
            self._write(erase + text + redraw)

    def close(self) -> None:
        """Erase the line; nothing is drawn after this."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._shown:
                self._shown = False
                self._write(ERASE)

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            pass  # a progress line is never worth a failure
