"""``leadctl notifications announcements``: the current user's announcements, unread marked."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from leadctl.commands._verb import verb_command
from leadctl.contract.operations import curated
from leadctl.http.paging_flags import Paging, check_count_alone
from leadctl.output.columns import Column
from leadctl.verbkit.listing import print_paged

if TYPE_CHECKING:
    from leadctl.context import Context

UNREAD_MARK = "●"
ANNOUNCEMENT_COLUMNS = (
    Column("name"),
    Column("message"),
    Column("createdAt", kind="datetime"),
    Column("isRead", kind="bool"),
    Column("id"),
)
# The table view's own fields: never part of the service's JSON, so never in -o json.
_MARK_KEY = "leadctl:unread"
TABLE_COLUMNS = (
    Column(_MARK_KEY, header=""),
    Column("name"),
    Column("message"),
    Column("createdAt", kind="datetime"),
)
NAME_WIDTH = 32
DATETIME_WIDTH = len("2026-11-21 14:03 UTC")
MIN_MESSAGE_WIDTH = 20
COLUMN_GAP = 2


def table_view(items: Iterable[Any], width: int | None) -> Iterator[Any]:
    """Each announcement as the table shows it: a ● in front when unread, and on a
    terminal the name and message cut to fit its width, so that no column is squeezed
    away (the service's text is free-form and often long)."""
    message_width = None
    if width is not None:
        fixed = len(UNREAD_MARK) + NAME_WIDTH + DATETIME_WIDTH + 3 * COLUMN_GAP
        message_width = max(MIN_MESSAGE_WIDTH, width - fixed)
    for item in items:
        if not isinstance(item, dict):
            yield item
            continue
        # Unread only when the service says false; a non-boolean isRead marks nothing.
        view = {_MARK_KEY: UNREAD_MARK if item.get("isRead") is False else "", **item}
        if message_width is not None:
            view["name"] = _fit(item.get("name"), NAME_WIDTH)
            view["message"] = _fit(item.get("message"), message_width)
        yield view


def _fit(value: Any, width: int) -> Any:
    if not isinstance(value, str):
        return value
    from rich.text import Text

    text = Text(" ".join(value.split()))
    text.truncate(width, overflow="ellipsis")
    return text.plain


EPILOG = (
    "Examples:\n\n"
    "  leadctl notifications announcements\n\n"
    "  leadctl notifications announcements --all -o ndjson | jq -r 'select(.isRead == false)'\n\n"
    "  leadctl notifications announcements --count"
)


@dataclass(frozen=True)
class Options:
    paging: Paging = field(default_factory=Paging)


def run(opts: Options, ctx: Context) -> None:
    """POST /notifications/announcements, one page or all, or only the total."""
    check_count_alone(opts.paging)

    width = ctx.ios.terminal_width() if ctx.ios.stdout_is_tty else None
    print_paged(
        ctx,
        curated(ctx, "POST", "/notifications/announcements"),
        {},
        columns=ANNOUNCEMENT_COLUMNS,
        table_view=lambda items: table_view(items, width),
        table_columns=TABLE_COLUMNS,
        paging=opts.paging,
    )


HELP = """List announcements (POST /notifications/announcements), newest first.

    The table marks unread announcements with ● in the first column and cuts long names
    and messages to the terminal's width; the other formats carry isRead and the full
    text. Read state is the caller's own (assumed: an organization key reads as the user
    who owns it). Without --all or --limit one page is printed.
    """


command = verb_command(Options, run, help=HELP)
