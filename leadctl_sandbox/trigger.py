"""``POST /_sandbox/webhooks/trigger``: a signed example delivery of one event type, as
``stripe trigger`` has the service send one (``leadctl webhooks trigger EVENT``).

The body is ``{"type": EVENT, "data": {...}}``; ``data`` is merged over the example (objects
key by key, anything else replaced), so ``--field status=Failed`` changes one field of it.
The example is the organization's newest resource of the event's kind, as the API shows it
(the newest lead for ``lead.created``, the newest automation run for
``automation_run.status_changed``): a delivery like the ones the sandbox sends on its own.
Answered 202 ``{"webhookId", "type", "url"}`` once queued (the background sender delivers and
retries it as any other); 409 when this sandbox sends no webhooks (no ``--webhook-url``).
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from leadctl_sandbox.db import loads
from leadctl_sandbox.problems import ApiProblem
from leadctl_sandbox.render import lead_json, org_tags
from leadctl_sandbox.webhooks import LEAD_CREATED, RUN_STATUS_CHANGED, Event

TRIGGER_PATH = "/_sandbox/webhooks/trigger"
NO_WEBHOOKS = (
    "this sandbox sends no webhooks: start one that does with "
    "`leadctl sandbox serve --webhook-url URL`"
)


def _newest_lead(conn: sqlite3.Connection, org_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT * FROM leads WHERE org_id = ? ORDER BY created_at DESC LIMIT 1", (org_id,)
    ).fetchone()
    return lead_json(row, org_tags(conn, org_id)) if row is not None else None


def _newest_run(conn: sqlite3.Connection, org_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT body FROM automation_runs WHERE org_id = ? ORDER BY started_at DESC LIMIT 1",
        (org_id,),
    ).fetchone()
    return loads(row["body"]) if row is not None else None


EXAMPLES: dict[str, Callable[[sqlite3.Connection, str], dict[str, Any] | None]] = {
    LEAD_CREATED: _newest_lead,
    RUN_STATUS_CHANGED: _newest_run,
}


def merged(base: Any, top: Any) -> Any:
    """``top`` over ``base``: objects key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(top, Mapping):
        result = dict(base)
        for key, value in top.items():
            result[key] = merged(base.get(key), value)
        return result
    return copy.deepcopy(top)


def example_event(
    conn: sqlite3.Connection, org_id: str, body: Mapping[str, Any], now: datetime
) -> Event:
    """The event ``body`` asks for, or a 400 problem naming what can be triggered."""
    kind, overrides = body.get("type"), body.get("data") or {}
    known = ", ".join(EXAMPLES)
    if not isinstance(kind, str) or kind not in EXAMPLES:
        raise ApiProblem(400, f"no example of event {kind!r}: the sandbox sends {known}")
    if not isinstance(overrides, Mapping):
        raise ApiProblem(400, "data must be an object of the fields to change")
    example = EXAMPLES[kind](conn, org_id)
    if example is None:
        raise ApiProblem(409, f"the organization has nothing to show in a {kind} yet")
    return Event(kind, now, merged(example, overrides))
