"""POST /notifications/announcements: announcements with the caller's own read state."""

from __future__ import annotations

from datetime import datetime

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import BOOL, DATETIME, Collection, Field, collection_json, fetch_page
from leadctl_sandbox.times import parse_datetime

ANNOUNCEMENTS = Collection(
    select=(
        "SELECT a.*, (r.read_at IS NOT NULL) AS is_read, r.read_at AS read_at "
        "FROM announcements a LEFT JOIN announcement_reads r "
        "ON r.announcement_id = a.id AND r.user_id = ?"
    ),
    scope="org_id = ?",
    fields={
        "id": Field("id"),
        "name": Field("name"),
        "message": Field("message"),
        "isRead": Field("is_read", BOOL),
        "createdAt": Field("created_at", DATETIME),
        "modifiedAt": Field("modified_at", DATETIME),
    },
    search_fields=("name", "message"),
    default_order=(("createdAt", "desc"),),
)


def list_announcements(call: Call) -> Reply:
    page = fetch_page(
        call.conn,
        ANNOUNCEMENTS,
        call.body,
        scope_params=(call.principal.user_id, call.principal.org_id),
        secret=call.secret,
    )
    items = [
        {
            "id": row["id"],
            "name": row["name"],
            "message": row["message"],
            "createdAtDisplay": relative(row["created_at"], call.now),
            "readAtDisplay": relative(row["read_at"], call.now) if row["read_at"] else "",
            "actionUrl": row["action_url"],
            "actionButtonText": row["action_button_text"],
            "createdAt": row["created_at"],
            "modifiedAt": row["modified_at"],
            "isRead": bool(row["is_read"]),
        }
        for row in page.rows
    ]
    return Reply(200, collection_json(items, page))


def relative(stamp: str, now: datetime) -> str:
    moment = parse_datetime(stamp)
    if moment is None:
        return stamp
    seconds = int((now - moment).total_seconds())
    if seconds < 60:
        return "just now"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"
