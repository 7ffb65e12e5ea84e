"""``leadctl leads``: list the organization's leads and send new ones to intake."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.commands.leads_import import IMPORT_EPILOG, import_leads
from leadctl.errors import UsageError
from leadctl.generated.command import DEFAULT_WAIT_TIMEOUT, WaitOption, WaitTimeoutOption
from leadctl.listing import (
    AllOption,
    CountOption,
    CursorOption,
    LimitOption,
    PageSizeOption,
    print_paged,
)
from leadctl.output.columns import Column

# RequestDataOptions from flags, shared with generated commands.
from leadctl.query_options import descending_value, direction_key_of, list_body

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
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
            help="Sort by FIELD (repeatable). A leading '-' sorts descending: leadctl sends "
            "direction with the contract's descending value (e.g. Descending) where its "
            "schema lists one, else desc (assumed: the API docs show only `field`; profile "
            "key order_direction_key names another property).",
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
    from leadctl.operations import curated

    operation = curated(ctx, "POST", "/leads/all/my")
    direction_key = direction_key_of(ctx.settings)
    body = list_body(
        search=search,
        search_fields=search_fields or [],
        filters=filters or [],
        ranges=ranges or [],
        order_by=order_by or [],
        direction_key=direction_key,
        stdin=ctx.ios.stdin,
        zone=ctx.input_zone() if ranges else None,
        now=ctx.clock.now(),
        descending=descending_value(ctx, operation, direction_key) if order_by else "desc",
    )
    print_paged(
        ctx,
        operation,
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
    from leadctl.operations import curated

    try:
        statuses = ctx.client().call_json(curated(ctx, "GET", "/lead-statuses"))
    except LeadctlError:
        return {}
    if not isinstance(statuses, list):
        return {}
    return {
        status.get("id"): status["color"]
        for status in statuses
        if isinstance(status, dict) and isinstance(status.get("color"), str)
    }


# -- create -----------------------------------------------------------------------------


def create_body(
    *, typed_fields: Sequence[str], data: str | None, stdin: TextIO | None, region: Any
) -> dict[str, Any]:
    from leadctl.fields import build_fields, json_kind, load_data_option, merge_over

    if not typed_fields and data is None:
        raise UsageError(
            "nothing to send: give --field KEY=VALUE or --data JSON",
            hint="for example: leadctl leads create --field phone=+15125550143 --field state=TX",
        )
    base: Any = {}
    if data is not None:
        base = load_data_option(data, stdin=stdin)
        if not isinstance(base, dict):
            raise UsageError(f"--data must be a JSON object, not {json_kind(base)}")
    fields = build_fields(typed_fields=typed_fields, stdin=stdin, typed_flag="--field")
    body = merge_over(base, fields)
    phone = body.get("phone")
    # `--field phone=5125550143` is typed as a number; its digits are still the number.
    if isinstance(phone, int) and not isinstance(phone, bool):
        phone = str(phone)
    if isinstance(phone, str):
        from leadctl.phone import check_region, to_e164

        body["phone"] = to_e164(phone, region=check_region(region), what="phone")
    return body


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
            "yes/no for a boolean, a;b for a list, a date-time without an offset in the "
            "profile's timezone; @FILE reads the value; 'tags[]=NAME' adds to a list. Fields "
            "the schema allows without listing are typed like `api -F`.",
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
    `leadctl leads list --filter id=ID`. Fields are dot paths into the active contract's
    POST /leads schema (contact.firstName); one it closes out is exit 2 naming the
    closest, and required fields are checked before sending. Every phone-shaped field
    (by format, pattern, name or an E.164 description, however deep) is checked and sent
    in E.164; numbers without a country code use the profile's region. This is the one
    command a source-key profile may run. It is not retried after the request was sent
    (a retry could create the lead twice): if the outcome is unknown, leadctl exits 9 and
    says what to check. The bundled contract's flat lead fields (firstName, lastName,
    email, phone, state, product, sourceId, tags, consentCertificate) are its assumption:
    the API docs do not show them.
    With --wait the lead is read back until intake settles it (GET /leads/{id} when the
    active contract has it, else `leads list --filter id=ID`) and printed then: exit 6
    when it is Rejected, 8 after --wait-timeout; not with a source key, which may not
    read leads.
    """
    ctx = get_context(typer_ctx)
    from leadctl.lead_fields import lead_body
    from leadctl.operations import curated
    from leadctl.output import emit_object

    intake = curated(ctx, "POST", "/leads")
    # Fields are dot paths into the contract's lead schema; a contract that lists none
    # takes the fields as typed (`api -F` rules).
    body = lead_body(ctx, intake, typed_fields=typed_fields or [], data=data, stdin=ctx.ios.stdin)
    if body is None:
        body = create_body(
            typed_fields=typed_fields or [],
            data=data,
            stdin=ctx.ios.stdin,
            region=ctx.settings.get("region"),
        )

    credential = None if ctx.options.dry_run or not wait else ctx.credential()
    if credential is not None and credential.kind.value == "source":
        raise UsageError(
            "--wait reads the lead back, which a source key may not do",
            hint="leave out --wait, or use an organization key or user token",
        )
    from leadctl.shapes import require_object

    lead = require_object(
        ctx.client().call_json(intake, json_body=body),
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
