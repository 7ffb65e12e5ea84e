"""Paging options shared by every collection command (curated or generated), and the loop
that prints pages. Outside ``leadctl.commands`` so that generated commands can use it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from leadctl.contract.body_schema import body_schema
from leadctl.errors import BadResponse, LeadctlError
from leadctl.http.paging import Pager, PageRequest, cursor_flag
from leadctl.http.paging_flags import Paging
from leadctl.output import columns_view, emit_list
from leadctl.output.progress import ProgressLine
from leadctl.output.registry import streams_items
from leadctl.output.response_columns import output_columns

# The page size --all asks for (and --limit N at most), unless --page-size is given.
ALL_PAGE_SIZE = 200

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation
    from leadctl.http.paging import Pager
    from leadctl.output import Column
    from leadctl.output.progress import ProgressLine
    from leadctl.verbkit.invocation import RequestInvocation


def print_paged(
    ctx: RequestInvocation,
    op: Operation,
    body: Mapping[str, Any],
    *,
    columns: Sequence[Column],
    paging: Paging,
    path_params: Mapping[str, str] | None = None,
    table_view: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    table_columns: Sequence[Column] | None = None,
    columns_from_contract: bool = False,
) -> None:
    """Send a RequestDataOptions query and print its items (or its total count).

    ``table_view`` reshapes items for the default table only (never for json or csv,
    which carry the service's items unchanged), shown with ``table_columns``: the output
    registry draws it for ``table`` without ``--columns``. ``columns`` are fitted to the
    active contract's items, and --columns checked against them, before the first request
    (:mod:`leadctl.output.response_columns`); ``columns_from_contract``: they came from it.
    """

    if not paging.count:
        columns = output_columns(ctx, op, columns, from_contract=columns_from_contract)

    page_size = page_size_of(paging)
    if page_size is not None and paging.page_size is None:
        # What leadctl chose (200, or --limit) stays within what the contract allows.
        page_size = min(page_size, _largest_page(ctx, op) or page_size)
    request = PageRequest(
        page_size=page_size,
        cursor=paging.cursor,
        limit=paging.limit,
        all_pages=paging.all_pages,
    )
    client = ctx.client()
    if paging.count:
        count_body = {**body, "includeCount": True, "pageSize": 1}
        pager = Pager(
            client, op, count_body, PageRequest(cursor=paging.cursor), path_params=path_params
        )
        pager.fetch_page(paging.cursor)
        if pager.total_count is None:
            raise BadResponse("the service did not return totalCount")
        ctx.ios.stdout.write(f"{pager.total_count}\n")
        return
    pager = Pager(client, op, body, request, path_params=path_params)
    items: Iterable[Any] = _unpaged_when_cut_short(ctx, pager)
    view = None
    if table_view is not None:
        view = columns_view(table_columns or columns, reshape=table_view)
    progress = None
    if paging.all_pages and _progress_wanted(ctx):
        progress = ProgressLine(ctx.ios.stderr)
        items = _with_progress(progress, pager, items)
        ctx.ios.status_line = progress
    try:
        emit_list(
            ctx,
            items,
            columns=columns,
            view=view,
            footer=lambda: _next_page_hint(pager),
            file_note=lambda written: _more_pages_note(pager, written, paging),
            streamed=paging.all_pages,
        )
    except LeadctlError as error:
        pager.note_resume_point(error)
        raise
    finally:
        if progress is not None:
            # Erased here, not when the generator is collected: after a closed pipe that
            # may be never, and the line would stay on the terminal.
            ctx.ios.status_line = None
            progress.close()
    if pager.interrupted:
        raise pager.interruption_error()


def page_size_of(paging: Paging) -> int | None:
    """The pageSize every request of the read asks for: --page-size, else 200 with --all,
    and never more than --limit (``--limit 1`` asks for one item); None (the service's
    default) for one page."""
    size = paging.page_size
    if paging.limit is None:
        return ALL_PAGE_SIZE if size is None and paging.all_pages else size
    return min(paging.limit, ALL_PAGE_SIZE if size is None else size)


def _largest_page(ctx: RequestInvocation, op: Operation) -> int | None:
    """The pageSize maximum of the operation's query schema, if it declares one: a service
    that caps pages at 100 refuses a request for 200."""

    found = body_schema(ctx, op)
    if found is None:
        return None
    schema = found.doc.properties(found.schema).get("pageSize")
    maximum = found.doc.keyword(schema, "maximum") if schema is not None else None
    if isinstance(maximum, bool) or not isinstance(maximum, (int, float)) or maximum < 1:
        return None
    return int(maximum)


def _unpaged_when_cut_short(ctx: RequestInvocation, pager: Pager) -> Iterator[Any]:
    """The pager's items; when Ctrl-C cut the read short, what is printed is a partial
    list: a table drawn from it goes straight to the terminal, never into the pager (which
    would take the screen and hide the note saying where to resume)."""
    yield from pager
    if pager.interrupted:
        ctx.ios.no_pager = True


def _next_page_hint(pager: Pager) -> str | None:

    if pager.next_cursor is None or pager.interrupted:
        return None
    return f"more results: add {cursor_flag(pager.next_cursor)} (or --all)"


def _more_pages_note(pager: Pager, written: int, paging: Paging) -> str | None:
    """Said on stderr, whatever it is connected to, when one page was printed and more
    exist: a partial export (a cron job's, into a file) must not pass for a whole one.
    Nothing when --limit asked for at most so many, or --all for every page."""
    if pager.next_cursor is None or pager.interrupted:
        return None
    if paging.limit is not None or paging.all_pages:
        return None

    plural = "" if written == 1 else "s"
    return (
        f"wrote {written} item{plural}, one page; more exist: add --all for every page, "
        f"or {cursor_flag(pager.next_cursor)} for the next"
    )


def _progress_wanted(ctx: RequestInvocation) -> bool:
    # A progress line on the terminal that also receives streamed items would garble them;
    # a table is printed only once every page is in, so it can share the terminal.

    ios = ctx.ios
    if not ios.progress_enabled or ios.env.get("TERM") == "dumb":
        return False
    return not ios.stdout_is_tty or not streams_items(ctx)


def _with_progress(progress: ProgressLine, pager: Pager, items: Iterable[Any]) -> Iterator[Any]:
    """Count items on the progress line; drawn before the first page arrives, so a
    table that waits for every page never leaves a blank screen."""
    progress.update(0, 0, force=True)
    for count, item in enumerate(items, start=1):
        progress.update(count, pager.pages)
        yield item
    # Every item is in: a table is drawn next, on a clean line.
    progress.close()
