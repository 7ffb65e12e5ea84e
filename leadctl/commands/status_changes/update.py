"""``leadctl status-changes update``: change fields of an entry of a lead's status history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._body_flags import BodyFlag, field_flags, given_body_flags
from leadctl.commands._verb import verb_command
from leadctl.contract.curated_fields import check_flag_fields, flag_fields
from leadctl.contract.operations import curated
from leadctl.errors import UsageError
from leadctl.inputs.datetimes import InvalidDateTime, datetime_option, parse_instant, resolve_zone
from leadctl.inputs.fields import load_data_option
from leadctl.output import emit_object
from leadctl.output.columns import Column
from leadctl.output.response_columns import output_columns
from leadctl.verbkit.replace import replace_resource_json

if TYPE_CHECKING:
    from datetime import tzinfo

    from leadctl.context import Context

CATEGORIES = ("Open", "Qualified", "Converted", "Lost", "Invalid", "Duplicate")


class DateTimeFlag(BodyFlag):
    """A body flag whose value is a date-time as typed, sent as UTC with a Z (its zone is the
    profile's, which only run knows)."""


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


def _body_fields(given: dict[str, tuple[BodyFlag, Any]], zone_name: str | None) -> dict[str, Any]:
    """The given field flags as body fields: the category in the service's spelling,
    date-times in UTC."""

    has_times = any(isinstance(flag, DateTimeFlag) for flag, _value in given.values())
    zone: tzinfo | None = resolve_zone(zone_name) if has_times else None
    fields: dict[str, Any] = {}
    for flag, value in given.values():
        if isinstance(flag, DateTimeFlag):
            fields[flag.field] = datetime_option(flag.flag, value, zone=zone).isoformat()
        elif flag.field == "category":
            fields[flag.field] = canonical_category(value)
        else:
            fields[flag.field] = value
    return fields


def _check_appointment(body: dict[str, Any], zone_name: str | None) -> None:
    """End before start is refused, whether the times came from flags or --data."""

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
    data: Any, given: dict[str, tuple[BodyFlag, Any]], *, zone_name: str | None
) -> dict[str, Any]:
    """The PUT body: ``--data`` with the given flags merged over it, checked before sending."""
    if data is not None and not isinstance(data, dict):
        raise UsageError("--data must be a JSON object (the status change fields to change)")
    body: dict[str, Any] = dict(data or {})
    body.update(_body_fields(given, zone_name))
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
    """The entry and the fields to change; None means not given. Date-times stay as typed:
    their zone is the profile's, which run reads from the Context."""

    change_id: Annotated[str, typer.Argument(metavar="ID", help="The status change to update.")]
    type_: Annotated[str | None, _text_option("--type", "type (free text)"), BodyFlag()] = None
    outcome: Annotated[str | None, _text_option("--outcome", "outcome (free text)"), BodyFlag()] = (
        None
    )
    category: Annotated[
        str | None,
        typer.Option(
            "--category",
            metavar="C",
            help="New category: " + ", ".join(CATEGORIES) + " (any case).",
            autocompletion=_complete_category,
        ),
        BodyFlag(),
    ] = None  # any case; run sends the service's spelling
    notes: Annotated[str | None, _text_option("--notes", "notes"), BodyFlag()] = None
    reason: Annotated[str | None, _text_option("--reason", "reason"), BodyFlag()] = None
    follow_up_status: Annotated[
        str | None,
        _text_option("--follow-up-status", "follow-up status (free text)"),
        BodyFlag(),
    ] = None
    callback_at: Annotated[str | None, _time_option("--callback-at"), DateTimeFlag()] = None
    task_due_at: Annotated[str | None, _time_option("--task-due-at"), DateTimeFlag()] = None
    appointment_start_at: Annotated[
        str | None, _time_option("--appointment-start-at"), DateTimeFlag()
    ] = None
    appointment_end_at: Annotated[
        str | None, _time_option("--appointment-end-at"), DateTimeFlag()
    ] = None
    appointment_notes: Annotated[
        str | None,
        _text_option("--appointment-notes", "appointment notes"),
        BodyFlag(),
    ] = None
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="More fields as a JSON object (null clears a field); flags win.",
        ),
    ] = None  # JSON, @FILE or - (stdin): run reads it


def run(opts: Options, ctx: Context) -> None:
    """Build the body (checked before sending), PUT it, print the updated entry."""

    operation = curated(ctx, "PUT", "/lead-status-changes/{id}")
    columns = output_columns(ctx, operation, STATUS_CHANGE_COLUMNS)
    loaded = load_data_option(opts.data, stdin=ctx.ios.stdin) if opts.data is not None else None
    given = given_body_flags(opts)
    body = status_change_update_body(loaded, given, zone_name=ctx.settings.get("timezone"))
    # Checked as sent: the category in the service's spelling, date-times in UTC.
    check_flag_fields(
        ctx, operation, flag_fields({f.field: (f.flag, body[f.field]) for f, _ in given.values()})
    )
    entry = replace_resource_json(
        ctx,
        operation,
        path_params={"id": opts.change_id},
        changes=body,
        what="the updated status change",
        flags=field_flags(Options),
    )
    emit_object(ctx, entry, columns=columns)


HELP = """Update an entry of a lead's status history (PUT /lead-status-changes/{id}).

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

command = verb_command(Options, run, help=HELP)
