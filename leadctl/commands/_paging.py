"""Paging options shared by every collection command, and the loop that prints pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.operations import Operation
    from leadctl.output import Column

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
) -> None:
    """Send a RequestDataOptions query and print its items (or its total count)."""
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
    emit_list(ctx, pager, columns=columns, footer=_FooterLater(pager))
    if pager.interrupted:
        raise pager.interruption_error()


class _FooterLater(str):
    """The footer is only known once the pages are read; the renderer asks at the end."""

    __slots__ = ("_pager",)

    def __new__(cls, pager: Any) -> _FooterLater:
        instance = super().__new__(cls, "")
        instance._pager = pager
        return instance

    def __str__(self) -> str:
        cursor = self._pager.next_cursor
        if cursor is None or self._pager.interrupted:
            return ""
        return f"more results: add --cursor {cursor} (or --all)"
