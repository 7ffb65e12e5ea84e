"""``leadctl leads``: list the organization's leads and send new ones to intake."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.commands._paging import (
    AllOption,
    CountOption,
    CursorOption,
    LimitOption,
    PageSizeOption,
    print_paged,
)
from leadctl.commands.leads_import import IMPORT_EPILOG, import_leads
from leadctl.errors import UsageError
from leadctl.generated.command import DEFAULT_WAIT_TIMEOUT, WaitOption, WaitTimeoutOption
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from datetime import datetime, tzinfo
    from typing import TextIO

app = typer.Typer(help="List, create and import leads.", no_args_is_help=True)

# The Lead schema is an assumption of the contract (the reference shows no lead records).
# Most wanted first: on a narrow terminal the columns from the right are left out (and
# named), never cut; --columns shows any others, e.g. email, product, sourceId.
LEAD_COLUMNS = (
    Column("id"),
    Column("firstName"),
    Column("lastName"),
    Column("phone"),
    Column("state"),
    Column("status.name", header="status", color_path="status.color"),
    Column("tags[].name", header="tags"),
    Column("processingStatus", header="processing"),
    Column("createdAt", kind="datetime"),
)
CREATED_LEAD_COLUMNS = (
    Column("id"),
    Column("processingStatus"),
    Column("processingError"),
    Column("firstName"),
    Column("lastName"),
    Column("phone"),
    Column("email"),
    Column("state"),
    Column("product"),
    Column("sourceId"),
    Column("createdAt", kind="datetime"),
)

# RangeFilter bound names, by the operator a user types.
RANGE_OPERATORS = {
    ">": "greaterThan",
    ">=": "greaterThanOrEqual",
    "<": "lessThan",
    "<=": "lessThanOrEqual",
}
# The reference shows only `field` on orderBy items; the contract assumes `direction`.
DEFAULT_ORDER_DIRECTION_KEY = "direction"
_FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


# -- RequestDataOptions from flags ------------------------------------------------------


def query_value(raw: str, *, field: str, flag: str, stdin: TextIO | None) -> Any:
    """A --filter or --range value typed like `api -F`; a JSON string literal ("123")
    stays a string."""
    from leadctl.fields import parse_json_text, typed_value

    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return parse_json_text(raw, what=f"{flag} {field}")
    return typed_value(raw, key=field, stdin=stdin)


def parse_filters(raw_filters: Iterable[str], *, stdin: TextIO | None) -> list[dict[str, Any]]:
    from leadctl.fields import split_field

    filters = []
    for raw in raw_filters:
        field, value = split_field(raw, flag="--filter")
        _check_field_name(field, flag="--filter", raw=raw)
        typed = query_value(value, field=field, flag="--filter", stdin=stdin)
        filters.append({"field": field, "value": typed})
    return filters


def _check_field_name(field: str, *, flag: str, raw: str) -> None:
    if not _FIELD_NAME.match(field):
        raise UsageError(f"{flag} {raw!r}: {field!r} is not a field name")


def parse_range(raw: str) -> tuple[str, str, str]:
    """``FIELD>=VALUE`` as (field, bound name, raw value); the error names the bad part."""
    usage = "expected FIELD>=VALUE with one of the operators > >= < <="
    position = next((i for i, char in enumerate(raw) if char in "<>"), -1)
    if position < 0:
        if "=" in raw:
            raise UsageError(
                f"--range {raw!r}: '=' alone is not a range operator",
                hint="use --filter FIELD=VALUE for equality, or one of > >= < <=",
            )
        raise UsageError(f"--range {raw!r}: no operator; {usage}")
    field = raw[:position].strip()
    operator = raw[position]
    rest = raw[position + 1 :]
    if rest.startswith("="):
        operator += "="
        rest = rest[1:]
    if not field:
        raise UsageError(f"--range {raw!r}: no field name before {operator!r}; {usage}")
    if field.endswith("="):
        raise UsageError(f"--range {raw!r}: {'=' + operator!r} is not an operator; {usage}")
    _check_field_name(field, flag="--range", raw=raw)
    if rest[:1] in ("<", ">", "="):
        raise UsageError(f"--range {raw!r}: {operator + rest[0]!r} is not an operator; {usage}")
    value = rest.strip()
    if not value:
        raise UsageError(f"--range {raw!r}: no value after {operator!r}; {usage}")
    return field, RANGE_OPERATORS[operator], value


def parse_ranges(
    raw_ranges: Iterable[str],
    *,
    stdin: TextIO | None,
    zone: tzinfo | None = None,
    now: datetime | None = None,
) -> list[dict[str, Any]]:
    """RangeFilter objects, one per field: bounds on the same field merge into one.

    A bound that is a time (a date shape or a relative form such as ``yesterday`` or
    ``-7d``) is read in ``zone`` (None: the system's) and sent in UTC; an impossible date
    is a usage error rather than a query that quietly matches nothing.
    """
    from leadctl.datetimes import datetime_option, looks_like_datetime

    by_field: dict[str, dict[str, Any]] = {}
    for raw in raw_ranges:
        field, bound, value = parse_range(raw)
        entry = by_field.setdefault(field, {"field": field})
        if bound in entry:
            raise UsageError(f"--range {raw!r}: {field} already has a {bound} bound")
        if looks_like_datetime(value):
            instant = datetime_option("--range", raw, zone=zone, now=now, value=value)
            entry[bound] = instant.isoformat()
        else:
            entry[bound] = query_value(value, field=field, flag="--range", stdin=stdin)
    return list(by_field.values())


def parse_order_by(raw_fields: Iterable[str], *, direction_key: str) -> list[dict[str, Any]]:
    order = []
    for raw in raw_fields:
        descending = raw.startswith("-")
        field = raw[1:] if descending else raw
        _check_field_name(field, flag="--order-by", raw=raw)
        item: dict[str, Any] = {"field": field}
        if descending:
            item[direction_key] = "desc"
        order.append(item)
    return order


def list_body(
    *,
    search: str | None,
    search_fields: Sequence[str],
    filters: Sequence[str],
    ranges: Sequence[str],
    order_by: Sequence[str],
    direction_key: str,
    stdin: TextIO | None,
    zone: tzinfo | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """The RequestDataOptions of `leads list`, without paging fields; empty parts are left out."""
    if search_fields and search is None:
        raise UsageError("--search-field narrows --search: give --search TEXT too")
    for field in search_fields:
        _check_field_name(field, flag="--search-field", raw=field)
    body: dict[str, Any] = {}
    if search is not None:
        body["search"] = search
    if search_fields:
        body["searchFields"] = list(search_fields)
    if filters:
        body["filters"] = parse_filters(filters, stdin=stdin)
    if ranges:
        body["rangeFilters"] = parse_ranges(ranges, stdin=stdin, zone=zone, now=now)
    if order_by:
        body["orderBy"] = parse_order_by(order_by, direction_key=direction_key)
    return body


@app.command(
    "list",
    epilog="Examples:\n\n"
    "  leadctl leads list --search smith --order-by -createdAt\n\n"
    "  leadctl leads list --filter state=TX -o csv --columns id,firstName,phone,state > tx.csv\n\n"
    "  leadctl leads list --range 'createdAt>=2026-11-01' --all -o ndjson | jq -r .phone",
)
def list_(
    typer_ctx: typer.Context,
    search: Annotated[
        str | None, typer.Option("--search", metavar="TEXT", help="Full-text search.")
    ] = None,
    search_fields: Annotated[
        list[str] | None,
        typer.Option(
            "--search-field",
            metavar="F",
            help="Search only this field (repeatable): firstName, lastName, email, phone.",
        ),
    ] = None,
    filters: Annotated[
        list[str] | None,
        typer.Option(
            "--filter",
            metavar="FIELD=VALUE",
            help="Keep leads whose FIELD equals VALUE (repeatable). VALUE is typed like "
            "`api -F`: true/false/null, numbers, JSON arrays (any of); quote it as "
            "'\"123\"' to keep a number a string.",
        ),
    ] = None,
    ranges: Annotated[
        list[str] | None,
        typer.Option(
            "--range",
            metavar="'FIELD>=VALUE'",
            help="Keep leads with FIELD in a range (repeatable; > >= < <=). Bounds on one "
            "field combine: --range 'createdAt>=2026-01-01' --range 'createdAt<2026-02-01'.",
        ),
    ] = None,
    order_by: Annotated[
        list[str] | None,
        typer.Option(
            "--order-by",
            metavar="FIELD",
            help="Sort by FIELD (repeatable). A leading '-' sorts descending; assumed: the "
            "API docs show only `field`, leadctl sends direction=desc (profile key "
            "order_direction_key names another property).",
        ),
    ] = None,
    page_size: PageSizeOption = None,
    limit: LimitOption = None,
    all_pages: AllOption = False,
    cursor: CursorOption = None,
    count: CountOption = False,
) -> None:
    """List the organization's leads (POST /leads/all/my), newest first unless sorted.

    Filters, ranges, search and sort go to the service as RequestDataOptions and stay the
    same on every page. Without --all or --limit one page is printed; on a terminal the
    footer tells how to get the next one, and a page written to a file from a terminal
    says on stderr that more exist. The table shows id, firstName, lastName, phone, state,
    status (in the lead status's color), tag names, processingStatus and createdAt (in the
    profile's timezone; --utc for UTC), leaving out from the right what the terminal has
    no room for; --columns picks others (email, product, sourceId, tags[].name...).
    Range values that are times (2026-11-01, 2026-11-01T09:00, today, yesterday, -7d,
    -2h) are read in the profile's timezone (else the system's) and sent in UTC. These
    lead fields are the contract's assumption: the API docs do not show lead records.
    """
    ctx = get_context(typer_ctx)
    if count and (limit is not None or all_pages):
        raise UsageError("--count prints only the total: it takes no --limit or --all")
    from leadctl.operations import OPERATIONS

    body = list_body(
        search=search,
        search_fields=search_fields or [],
        filters=filters or [],
        ranges=ranges or [],
        order_by=order_by or [],
        direction_key=_direction_key(ctx.settings.get("order_direction_key")),
        stdin=ctx.ios.stdin,
        zone=_input_zone(ctx) if ranges else None,
        now=ctx.clock.now(),
    )
    print_paged(
        ctx,
        OPERATIONS["listMyLeads"],
        body,
        columns=LEAD_COLUMNS,
        page_size=page_size,
        limit=limit,
        all_pages=all_pages,
        cursor=cursor,
        count=count,
        table_view=_with_status_colors(ctx),
    )


def _with_status_colors(ctx: Any) -> Any:
    """For the default table on a color terminal: each lead's status gets the color its
    lead status has (one GET /lead-statuses, made once the first lead is in)."""

    def view(leads: Iterable[Any]) -> Iterator[Any]:
        colors: dict[Any, str] | None = None
        for lead in leads:
            status = lead.get("status") if isinstance(lead, dict) else None
            if isinstance(status, dict) and ctx.ios.stdout_color:
                if colors is None:
                    colors = _status_colors(ctx)
                color = colors.get(status.get("id"))
                if color and "color" not in status:
                    lead = {**lead, "status": {**status, "color": color}}
            yield lead

    return view


def _status_colors(ctx: Any) -> dict[Any, str]:
    """Lead status id -> color; empty when the statuses cannot be read (colors are a
    nicety: the list still prints)."""
    from leadctl.errors import LeadctlError
    from leadctl.operations import OPERATIONS

    try:
        statuses = ctx.client().call_json(OPERATIONS["listLeadStatuses"])
    except LeadctlError:
        return {}
    if not isinstance(statuses, list):
        return {}
    return {
        status.get("id"): status["color"]
        for status in statuses
        if isinstance(status, dict) and isinstance(status.get("color"), str)
    }


def _input_zone(ctx: Any) -> tzinfo | None:
    from leadctl.datetimes import input_zone

    return input_zone(ctx.settings.get("timezone"), ctx.env)


def _direction_key(value: Any) -> str:
    return value if isinstance(value, str) and value else DEFAULT_ORDER_DIRECTION_KEY


# -- create -----------------------------------------------------------------------------


@app.command(
    epilog="Examples:\n\n"
    "  leadctl leads create --field firstName=Ada --field phone=+15125550143 --field state=TX\n\n"
    "  leadctl leads create --data @lead.json --field 'tags[]=webinar'\n\n"
    "  jq -c '.lead' form.json | leadctl -p intake leads create --data - -o value --columns id",
)
def create(
    typer_ctx: typer.Context,
    typed_fields: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            metavar="PATH=VALUE",
            help="A lead field (repeatable) by its dot path in the active contract's lead "
            "schema (contact.phone.number), typed from the schema: 720 for an integer, "
            "yes/no for a boolean, a;b for a list; @FILE reads the value; 'tags[]=NAME' "
            "adds to a list.",
        ),
    ] = None,
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="The lead as a JSON object; --field values are merged over it.",
        ),
    ] = None,
    wait: WaitOption = False,
    wait_timeout: WaitTimeoutOption = DEFAULT_WAIT_TIMEOUT,
) -> None:
    """Send one lead to intake (POST /leads) and print its id and processingStatus.

    Intake completes later: the answer is the lead with processingStatus Pending, which
    becomes Accepted or Rejected (see processingError) shortly after; read it back with
    `leadctl leads list --filter id=ID`. This is the one command a source-key profile may
    run. It is not retried after the request was sent (a retry could create the lead
    twice): if the outcome is unknown, leadctl exits 9 and says what to check.
    Fields are dot paths into the active contract's POST /leads schema
    (contact.firstName, customer.creditScore); a path it does not have is exit 2 naming
    the closest ones. Every phone-shaped field (by format, name or an E.164 description,
    however deep) is checked and sent in E.164; numbers without a country code use the
    profile's region. Required fields are checked before sending; a required list not
    given is sent empty, a required object whose fields are all optional as {}. The
    bundled contract's flat fields (firstName, lastName, email, phone, state, product,
    sourceId, tags, consentCertificate) are its assumption: the API docs do not show them.
    With --wait the lead is read back until intake settles it (GET /leads/{id} when the
    active contract has it, else `leads list --filter id=ID`) and printed then: exit 6
    when it is Rejected, 8 after --wait-timeout; not with a source key, which may not
    read leads.
    """
    ctx = get_context(typer_ctx)
    from leadctl.lead_fields import create_body, intake_shape

    body = create_body(
        intake_shape(ctx), typed_fields=typed_fields or [], data=data, stdin=ctx.ios.stdin
    )
    from leadctl.operations import OPERATIONS
    from leadctl.output import emit_object

    credential = None if ctx.options.dry_run or not wait else ctx.credential()
    if credential is not None and credential.kind.value == "source":
        raise UsageError(
            "--wait reads the lead back, which a source key may not do",
            hint="leave out --wait, or use an organization key or user token",
        )
    from leadctl.shapes import require_object

    lead = require_object(
        ctx.client().call_json(OPERATIONS["createLead"], json_body=body),
        what="the new lead",
        required=("id",),
    )
    if wait:
        from leadctl.generated.tree import generated_tree
        from leadctl.waiting import wait_for_lead

        lead = wait_for_lead(ctx, generated_tree(typer_ctx), lead, timeout=wait_timeout)
    emit_object(ctx, lead, columns=CREATED_LEAD_COLUMNS)
    if wait:
        return
    if isinstance(lead, dict) and lead.get("processingStatus") == "Pending" and lead.get("id"):
        from leadctl.hints import command_line

        check = command_line(ctx, f"leads list --filter id={lead['id']}")
        ctx.ios.info(f"intake is processing the lead: check it with `{check}`")


app.command("import", epilog=IMPORT_EPILOG)(import_leads)
