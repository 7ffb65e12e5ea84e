"""Paging options shared by every collection command, and the loop that prints pages."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.operations import Operation
    from leadctl.output import Column
    from leadctl.paging import Pager

PageSizeOption = Annotated[
    int | None,
    typer.Option("--page-size", min=1, metavar="N", help="Items per request (pageSize)."),
]
LimitOption = Annotated[
    int | None, typer.Option("--limit", min=1, metavar="N", help="Stop after N items.")
]
AllOption = Annotated[bool, typer.Option("--all", help="Follow every page.")]
CursorOption = Annotated[
    str | None,
    typer.Option("--cursor", metavar="TOKEN", help="Resume from a continuation token."),
]
CountOption = Annotated[
    bool, typer.Option("--count", help="Print only the total count (includeCount).")
]


def print_paged(
    ctx: Context,
    op: Operation,
    body: Mapping[str, Any],
    *,
    columns: Sequence[Column],
    page_size: int | None,
    limit: int | None,
    all_pages: bool,
    cursor: str | None,
    count: bool = False,
    path_params: Mapping[str, str] | None = None,
    table_view: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
    table_columns: Sequence[Column] | None = None,
) -> None:
    """Send a RequestDataOptions query and print its items (or its total count).

    ``table_view`` reshapes items for the default table only (never for json or csv,
    which carry the service's items unchanged), shown with ``table_columns``.
    """
    from leadctl.errors import BadResponse
    from leadctl.output import emit_list
    from leadctl.paging import Pager, PageRequest

    request = PageRequest(page_size=page_size, cursor=cursor, limit=limit, all_pages=all_pages)
    client = ctx.client()
    if count:
        count_body = {**body, "includeCount": True, "pageSize": 1}
        pager = Pager(client, op, count_body, PageRequest(cursor=cursor), path_params=path_params)
        pager.fetch_page(cursor)
        if pager.total_count is None:
            raise BadResponse("the service did not return totalCount")
        ctx.ios.stdout.write(f"{pager.total_count}\n")
        return
    pager = Pager(client, op, body, request, path_params=path_params)
    items: Iterable[Any] = pager
    if table_view is not None and ctx.output_format == "table" and not ctx.options.columns:
        items = table_view(pager)
        columns = table_columns or columns
    emit_list(ctx, items, columns=columns, footer=lambda: _next_page_hint(pager))
    if pager.interrupted:
        raise pager.interruption_error()


def _next_page_hint(pager: Pager) -> str | None:
    if pager.next_cursor is None or pager.interrupted:
        return None
    return f"more results: add --cursor {pager.next_cursor} (or --all)"
