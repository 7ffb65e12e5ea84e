"""The five paging flags of a collection command, declared once for curated and generated
verbs, and what they mean taken together before anything is sent.

Light on purpose (Typer and leadctl's errors only): a verb's ``--help`` builds these
flags, and the paging machinery (``leadctl.verbkit.listing``) loads only when a list runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

from leadctl.errors import UsageError

PageSizeOption = Annotated[
    int | None,
    typer.Option("--page-size", min=1, metavar="N", help="Items per request (pageSize)."),
]
LimitOption = Annotated[
    int | None,
    typer.Option(
        "--limit",
        min=1,
        metavar="N",
        help="Stop after N items, asking for at most N a page (following pages as needed).",
    ),
]
AllOption = Annotated[
    bool,
    typer.Option(
        "--all",
        help="Follow every page, asking for 200 items a page (or the most the service's "
        "contract allows) unless --page-size is given; with --limit, until N items. "
        "Without --all or --limit a list is one page, and when more exist stderr says so "
        "in one line, wherever it goes (a terminal, a file, a cron log; -q silences it).",
    ),
]
CursorOption = Annotated[
    str | None,
    typer.Option("--cursor", metavar="TOKEN", help="Resume from a continuation token."),
]
CountOption = Annotated[
    bool, typer.Option("--count", help="Print only the total count (includeCount).")
]


@dataclass(frozen=True)
class Paging:
    """The five paging flags of a collection command, as given; a curated verb's Options
    holds one (``paging: Paging = field(default_factory=Paging)``) and gets the five flags."""

    page_size: PageSizeOption = None
    limit: LimitOption = None
    all_pages: AllOption = False
    cursor: CursorOption = None
    count: CountOption = False


def paging_from_flags(
    *,
    page_size: int | None,
    limit: int | None,
    all_pages: bool | None,
    cursor: str | None,
    count: bool | None,
) -> Paging:
    """The Paging of the flags above (a flag not given, as a generated verb may pass
    None for a switch, is off)."""
    return Paging(
        page_size=page_size,
        limit=limit,
        all_pages=bool(all_pages),
        cursor=cursor,
        count=bool(count),
    )


def check_count_alone(paging: Paging) -> None:
    """--count prints only the total: --limit and --all, which choose items, are exit 2."""
    if paging.count and (paging.limit is not None or paging.all_pages):
        raise UsageError("--count prints only the total: it takes no --limit or --all")
