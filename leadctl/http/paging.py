"""Following RequestDataOptions pages exactly as the reference says.

The first request carries no token (unless the user resumes with --cursor); each next one
repeats the first request's body exactly (filters, sort and pageSize included: a service may
bind its token to the query) with the returned token, byte for byte; paging ends only when
a response has no token. Items are yielded one at a time.

Ctrl-C while items are being written finishes the page already in memory, so the cursor
printed for resuming points exactly at the next page: no gap, no repeat.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.contract.shapes import check_page
from leadctl.errors import BadResponse, ExitCode, LeadctlError, UsageError
from leadctl.util.sigint import sigint_handled_by

if TYPE_CHECKING:
    from types import FrameType

    from leadctl.contract.operations import Operation
    from leadctl.http.client import Client


class Interrupted(LeadctlError):
    """Ctrl-C during paging; the message tells how to resume."""

    exit_code = ExitCode.INTERRUPTED


@dataclass(frozen=True)
class PageRequest:
    page_size: int | None = None
    cursor: str | None = None
    limit: int | None = None
    all_pages: bool = False

    def __post_init__(self) -> None:
        if self.cursor is not None and not self.cursor.strip():
            raise UsageError("--cursor must not be empty")


class Pager:
    """Iterates the items of a paged collection operation."""

    def __init__(
        self,
        client: Client,
        op: Operation,
        body: Mapping[str, Any],
        request: PageRequest,
        *,
        path_params: Mapping[str, str] | None = None,
    ) -> None:
        self._client = client
        self._page_size = request.page_size
        self._op = op
        self._body = dict(body)
        self._request = request
        self._path_params = path_params
        self.next_cursor: str | None = None
        self.total_count: int | None = None
        self.pages = 0
        self.interrupted = False
        # Interrupted while a page was being fetched (that page was never written).
        self._interrupted_fetching = False
        self._fetching = False
        self._interrupt_requested = False

    def _page_body(self, token: str | None) -> dict[str, Any]:
        body = dict(self._body)
        if self._page_size is not None:
            body["pageSize"] = self._page_size
        if token is not None:
            body["continuationToken"] = token
        else:
            body.pop("continuationToken", None)
        return body

    def fetch_page(self, token: str | None) -> tuple[list[Any], str | None]:
        data = self._client.call_json(
            self._op, json_body=self._page_body(token), path_params=self._path_params
        )
        items, next_token, total, _answered = check_page(
            data, source=f"{self._op.method} {self._op.path}"
        )
        if next_token is not None and next_token == token:
            raise BadResponse("the service returned the same continuation token again")
        if total is not None:
            self.total_count = total
        self.pages += 1
        return items, next_token

    def __iter__(self) -> Iterator[Any]:
        with sigint_handled_by(self._on_sigint):
            yield from self._items()

    def _on_sigint(self, _signum: int, _frame: FrameType | None) -> None:
        """While items are written, Ctrl-C asks to stop at the end of the page. While a page
        is being fetched (nothing of it written yet), or on a second Ctrl-C,
        KeyboardInterrupt is raised at once."""
        if self._fetching or self._interrupt_requested:
            raise KeyboardInterrupt
        self._interrupt_requested = True

    def _stop_if_asked_between_pages(self) -> None:
        """Called once ``_fetching`` is set, before a page is fetched.

        A Ctrl-C handled after the end-of-page check but before ``_fetching`` was set only
        asked to stop between pages (signal handlers run between any two bytecodes of the
        main thread): the page about to be fetched must not be written either. From here
        on a Ctrl-C raises at once, so none is left unseen.
        """
        if self._interrupt_requested:
            raise KeyboardInterrupt

    def _items(self) -> Iterator[Any]:
        """Yield items while the next page is already being fetched (one page ahead)."""
        request = self._request
        token = request.cursor
        yielded = 0
        pending: _PageFetch | None = None
        while True:
            try:
                self._fetching = True
                self._stop_if_asked_between_pages()
                items, next_token = (
                    pending.result() if pending is not None else self.fetch_page(token)
                )
            except KeyboardInterrupt:
                # The page being fetched was never written: resume from its own token.
                self.interrupted = True
                self._interrupted_fetching = True
                self.next_cursor = token
                return
            finally:
                self._fetching = False
            # --limit stops at N items, with --all too; --all alone follows every page.
            below_limit = request.limit is None or yielded + len(items) < request.limit
            wanted = below_limit and (request.all_pages or request.limit is not None)
            follow = next_token is not None and wanted
            pending = _PageFetch(self, next_token) if follow and next_token else None
            for item in items:
                if request.limit is not None and yielded >= request.limit:
                    self.next_cursor = None  # stopped inside a page: no exact cursor exists
                    return
                yield item
                yielded += 1
            self.next_cursor = next_token
            if self._interrupt_requested:
                self.interrupted = True
                return
            if pending is None:
                return
            token = next_token

    def note_resume_point(self, error: LeadctlError) -> None:
        """A failure after some pages were written: the error says where to resume, so
        nothing already written has to be fetched again and nothing is skipped."""
        if self.pages == 0 or self.next_cursor is None:
            return
        resume = f"the items before it were written; resume with: {cursor_flag(self.next_cursor)}"
        error.hint = f"{error.hint}; {resume}" if error.hint else resume

    def interruption_error(self) -> Interrupted:
        if self.next_cursor is None and self._interrupted_fetching:
            # Only the first page, asked for without --cursor, is fetched with no token.
            return Interrupted(
                "interrupted while the first page was fetched: nothing was written",
                hint="run the command again",
            )
        if self.next_cursor is None:
            return Interrupted("interrupted after the last page: every item was written")
        return Interrupted("interrupted", hint=f"resume with: {cursor_flag(self.next_cursor)}")


def cursor_flag(token: str) -> str:
    """``--cursor TOKEN`` to paste into a shell: a token is the service's text and may hold
    spaces or quotes, which must reach the service again byte for byte."""
    import shlex

    return f"--cursor {shlex.quote(token)}"


class _PageFetch:
    """Fetches one page in a daemon thread while the caller writes the previous one.

    One thread serves every fetch, started with the first: a thread started per page made
    the writer wait for it to be scheduled (over a millisecond a page on a busy machine),
    which cost more than fetching ahead saved. A daemon thread, so an abandoned fetch
    (Ctrl-C, a closed pipe) never delays exit.
    """

    _jobs: queue.SimpleQueue[tuple[_PageFetch, Pager, str]] = queue.SimpleQueue()
    _worker: threading.Thread | None = None
    _worker_lock = threading.Lock()

    def __init__(self, pager: Pager, token: str) -> None:
        self._done = threading.Event()
        self._page: tuple[list[Any], str | None] | None = None
        self._error: BaseException | None = None
        _PageFetch._jobs.put((self, pager, token))
        with _PageFetch._worker_lock:
            if _PageFetch._worker is None or not _PageFetch._worker.is_alive():
                _PageFetch._worker = threading.Thread(
                    target=_PageFetch._serve, name="leadctl-page", daemon=True
                )
                _PageFetch._worker.start()

    @staticmethod
    def _serve() -> None:
        while True:
            fetch, pager, token = _PageFetch._jobs.get()
            fetch._run(pager, token)

    def _run(self, pager: Pager, token: str) -> None:
        try:
            self._page = pager.fetch_page(token)
        except BaseException as error:  # re-raised in the caller's thread
            self._error = error
        finally:
            self._done.set()

    def result(self) -> tuple[list[Any], str | None]:
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._page is not None
        return self._page
