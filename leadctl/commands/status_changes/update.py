"""``leadctl status-changes update``: change fields of an entry of a lead's status history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.errors import UsageError
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from datetime import tzinfo

    from leadctl.context import Context

CATEGORIES = ("Open", "Qualified", "Converted", "Lost", "Invalid", "Duplicate")
# flag -> body field, for the date-time flags (sent as UTC with a Z).
DATETIME_FLAGS = {
    "--callback-at": "callbackAt",
    "--task-due-at": "taskDueAt",
    "--appointment-start-at": "appointmentStartAt",
    "--appointment-end-at": "appointmentEndAt",
}

# The flag that sets each text field (for errors naming what to give).
FIELD_FLAGS = {
    "type": "--type",
    "outcome": "--outcome",
    "category": "--category",
    "notes": "--notes",
    "reason": "--reason",
    "followUpStatus": "--follow-up-status",
    "appointmentNotes": "--appointment-notes",
}

STATUS_CHANGE_COLUMNS = (
    Column("id"),
    Column("leadId"),
    Column("leadName"),
    Column("type"),
    Column("outcome"),
    Column("category"),
    Column("reason"),
    Column("notes"),
    Column("followUpStatus"),
    Column("callbackAt", kind="datetime"),
    Column("taskDueAt", kind="datetime"),
    Column("appointmentStartAt", kind="datetime"),
    Column("appointmentEndAt", kind="datetime"),
    Column("appointmentNotes"),
    Column("updatedAt", kind="datetime"),
)

DATETIME_HELP = (
    "ISO 8601; without an offset it is local time (the profile's timezone, else the "
    "system's); sent as UTC."
)


def canonical_category(value: str) -> str:
    """The service's spelling of a category given in any case."""
    for category in CATEGORIES:
        if category.lower() == value.strip().lower():
            return category
    raise UsageError(
        f"--category {value!r} is not a category",
        hint="use one of " + ", ".join(CATEGORIES),
    )


def _datetime_fields(values: dict[str, str | None], zone_name: str | None) -> dict[str, str]:
    """The given date-time flags as body fields, in UTC."""
    from leadctl.datetimes import datetime_option, resolve_zone

    given = {flag: value for flag, value in values.items() if value is not None}
    if not given:
        return {}
    zone: tzinfo | None = resolve_zone(zone_name)
    return {
        DATETIME_FLAGS[flag]: datetime_option(flag, value, zone=zone).isoformat()
        for flag, value in given.items()
    }


def _check_appointment(body: dict[str, Any], zone_name: str | None) -> None:
    """End before start is refused, whether the times came from flags or --data."""
    from leadctl.datetimes import InvalidDateTime, parse_instant, resolve_zone

    start, end = body.get("appointmentStartAt"), body.get("appointmentEndAt")
    if not (isinstance(start, str) and isinstance(end, str)):
        return
    try:
        zone = resolve_zone(zone_name)
        start_at = parse_instant(start, zone=zone).utc
        end_at = parse_instant(end, zone=zone).utc
    except (InvalidDateTime, UsageError):
        return  # values from --data that the service will judge itself
    if end_at < start_at:
        raise UsageError(
            f"the appointment ends ({end}) before it starts ({start})",
            hint="check --appointment-start-at and --appointment-end-at",
        )


def status_change_update_body(
    data: Any,
    flags: dict[str, Any],
    datetimes: dict[str, str | None],
    *,
    zone_name: str | None,
) -> dict[str, Any]:
    """The PUT body: ``--data`` with the given flags merged over it, checked before sending."""
    if data is not None and not isinstance(data, dict):
        raise UsageError("--data must be a JSON object (the status change fields to change)")
    body: dict[str, Any] = dict(data or {})
    fields = {key: value for key, value in flags.items() if value is not None}
    if "category" in fields:
        fields["category"] = canonical_category(fields["category"])
    times = _datetime_fields(datetimes, zone_name)
    body.update(fields)
    body.update(times)
    if not body:
        raise UsageError(
            "nothing to update: give at least one field flag or --data",
            hint="run `leadctl status-changes update --help` for the fields",
        )
    _check_appointment(body, zone_name)
    return body


def _text_option(flag: str, field: str) -> Any:
    return typer.Option(flag, metavar="TEXT", help=f"New {field}.")


def _time_option(flag: str) -> Any:
    return typer.Option(flag, metavar="DATETIME", help=DATETIME_HELP)


def _complete_category(incomplete: str) -> list[str]:
    return [c for c in CATEGORIES if c.lower().startswith(incomplete.lower())]


EPILOG = (
    "Examples:\n\n"
    "  leadctl status-changes update CHANGE_ID --category qualified --outcome 'Appointment set' "
    "--appointment-start-at 2026-11-23T15:00 --appointment-end-at 2026-11-23T15:30\n\n"
    "  leadctl status-changes update CHANGE_ID --callback-at 2026-11-21T14:00:00Z "
    "--notes 'call back'\n\n"
    "  leadctl status-changes update CHANGE_ID --data '{\"callbackAt\": null}' -o json | jq ."
)


@dataclass(frozen=True)
class Options:
    change_id: str
    type_: str | None = None
    outcome: str | None = None
    category: str | None = None  # any case; checked by run
    notes: str | None = None
    reason: str | None = None
    follow_up_status: str | None = None
    # Date-times as typed: their zone is the profile's, which run reads from the Context.
    callback_at: str | None = None
    task_due_at: str | None = None
    appointment_start_at: str | None = None
    appointment_end_at: str | None = None
    appointment_notes: str | None = None
    data: str | None = None  # JSON, @FILE or - (stdin)


def run(opts: Options, ctx: Context) -> None:
    """Build the body (checked before sending), PUT it, print the updated entry."""
    from leadctl.fields import load_data_option
    from leadctl.operations import curated
    from leadctl.output import emit_object
    from leadctl.response_columns import output_columns

    operation = curated(ctx, "PUT", "/lead-status-changes/{id}")
    columns = output_columns(ctx, operation, STATUS_CHANGE_COLUMNS)
    loaded = load_data_option(opts.data, stdin=ctx.ios.stdin) if opts.data is not None else None
    text_flags = {
        "type": opts.type_,
        "outcome": opts.outcome,
        "category": opts.category,
        "notes": opts.notes,
        "reason": opts.reason,
        "followUpStatus": opts.follow_up_status,
        "appointmentNotes": opts.appointment_notes,
    }
    time_flags = {
        "--callback-at": opts.callback_at,
        "--task-due-at": opts.task_due_at,
        "--appointment-start-at": opts.appointment_start_at,
        "--appointment-end-at": opts.appointment_end_at,
    }
    body = status_change_update_body(
        loaded, text_flags, time_flags, zone_name=ctx.settings.get("timezone")
    )
    from leadctl.curated_fields import check_flag_fields, flag_fields
    from leadctl.replace import replace_resource_json

    given = {
        field: (FIELD_FLAGS[field], body[field])
        for field, value in text_flags.items()
        if value is not None
    }
    given |= {
        DATETIME_FLAGS[flag]: (flag, body[DATETIME_FLAGS[flag]])
        for flag, value in time_flags.items()
        if value is not None
    }
    check_flag_fields(ctx, operation, flag_fields(given))
    entry = replace_resource_json(
        ctx,
        operation,
        path_params={"id": opts.change_id},
        changes=body,
        what="the updated status change",
        flags=FIELD_FLAGS | {field: flag for flag, field in DATETIME_FLAGS.items()},
    )
    emit_object(ctx, entry, columns=columns)


def update(
    typer_ctx: typer.Context,
    change_id: Annotated[str, typer.Argument(metavar="ID", help="The status change to update.")],
    type_: Annotated[str | None, _text_option("--type", "type (free text)")] = None,
    outcome: Annotated[str | None, _text_option("--outcome", "outcome (free text)")] = None,
    category: Annotated[
        str | None,
        typer.Option(
            "--category",
            metavar="C",
            help="New category: " + ", ".join(CATEGORIES) + " (any case).",
            autocompletion=_complete_category,
        ),
    ] = None,
    notes: Annotated[str | None, _text_option("--notes", "notes")] = None,
    reason: Annotated[str | None, _text_option("--reason", "reason")] = None,
    follow_up_status: Annotated[
        str | None, _text_option("--follow-up-status", "follow-up status (free text)")
    ] = None,
    callback_at: Annotated[str | None, _time_option("--callback-at")] = None,
    task_due_at: Annotated[str | None, _time_option("--task-due-at")] = None,
    appointment_start_at: Annotated[str | None, _time_option("--appointment-start-at")] = None,
    appointment_end_at: Annotated[str | None, _time_option("--appointment-end-at")] = None,
    appointment_notes: Annotated[
        str | None, _text_option("--appointment-notes", "appointment notes")
    ] = None,
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="More fields as a JSON object (null clears a field); flags win.",
        ),
    ] = None,
) -> None:
    """Update an entry of a lead's status history (PUT /lead-status-changes/{id}).

    Only the fields you give are sent when the active contract takes a partial update; the
    others keep their value. Where the active contract's update requires fields you did not
    give, the entry is read first, your changes are merged over it and the whole entry is
    sent (--dry-run shows it). When the entry is the lead's current one, the lead's status
    changes with it.

    Date-times are ISO 8601: 2026-11-21T14:00:00Z, 2026-11-21T09:00-05:00, 2026-11-21T14:00
    or a date alone (midnight). Without an offset they are local time in the profile's
    timezone (`leadctl profile set timezone America/New_York`), else the system's zone;
    a local time the clocks skip is refused, a repeated one is its first occurrence. They
    are sent as UTC with a Z. An appointment that ends before it starts is refused.
    Values of --type, --outcome and --follow-up-status are sent as given where the
    contract does not list them. Prints the updated entry.
    """
    opts = Options(
        change_id=change_id,
        type_=type_,
        outcome=outcome,
        category=category,
        notes=notes,
        reason=reason,
        follow_up_status=follow_up_status,
        callback_at=callback_at,
        task_due_at=task_due_at,
        appointment_start_at=appointment_start_at,
        appointment_end_at=appointment_end_at,
        appointment_notes=appointment_notes,
        data=data,
    )
    run(opts, get_context(typer_ctx))
