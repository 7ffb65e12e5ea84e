"""``leadctl leads create``: send one lead to intake and print its id and processingStatus."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.cli.generated_tree import generated_tree
from leadctl.cli.hints import pending_lead_note
from leadctl.commands._verb import FromInvocation, verb_command
from leadctl.contract.catalogue import OperationCatalogue
from leadctl.contract.operations import curated
from leadctl.contract.shapes import require_object
from leadctl.errors import UsageError
from leadctl.generated.command import DEFAULT_WAIT_TIMEOUT, WaitOption, WaitTimeoutOption
from leadctl.inputs.fields import build_fields, load_data_option, merge_over
from leadctl.inputs.lead_fields import lead_body
from leadctl.inputs.phone import check_region, to_e164
from leadctl.output import emit_object
from leadctl.output.columns import Column
from leadctl.output.response_columns import output_columns
from leadctl.util.jsonkind import json_kind
from leadctl.verbkit.waiting import wait_for_lead

if TYPE_CHECKING:
    from typing import TextIO

    from leadctl.context import Context

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

EPILOG = (
    "Examples:\n\n"
    "  leadctl leads create --field firstName=Ada --field phone=+15125550143 --field state=TX\n\n"
    "  leadctl leads create --data @lead.json --field 'tags[]=webinar'\n\n"
    "  jq -c '.lead' form.json | leadctl -p intake leads create --data - -o value --columns id"
)


def create_body(
    *, typed_fields: Sequence[str], data: str | None, stdin: TextIO | None, region: Any
) -> dict[str, Any]:

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
        body["phone"] = to_e164(phone, region=check_region(region), what="phone")
    return body


@dataclass(frozen=True)
class Options:
    typed_fields: Annotated[
        tuple[str, ...],
        typer.Option(
            "--field",
            metavar="PATH=VALUE",
            help="A lead field (repeatable) by its dot path in the active contract's lead "
            "schema (contact.phone.number), typed from the schema: 720 for an integer, "
            "yes/no for a boolean, a;b for a list, a date-time without an offset in the "
            "profile's timezone; @FILE reads the value; 'tags[]=NAME' adds to a list. Fields "
            "the schema allows without listing are typed like `api -F`.",
        ),
    ] = ()
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="The lead as a JSON object; --field values are merged over it.",
        ),
    ] = None
    wait: WaitOption = False
    wait_timeout: WaitTimeoutOption = DEFAULT_WAIT_TIMEOUT
    # The active contract's operations: --wait reads the lead back with one of them.
    tree: Annotated[OperationCatalogue | None, FromInvocation(generated_tree)] = None


def run(opts: Options, ctx: Context) -> None:
    """POST /leads with the body the fields make; with --wait, read it back until settled."""
    tree = opts.tree
    if opts.wait and tree is None:
        raise RuntimeError("leads create --wait needs the active contract's tree in Options")

    intake = curated(ctx, "POST", "/leads")
    columns: Sequence[Column] = CREATED_LEAD_COLUMNS
    if not opts.wait:  # with --wait the lead read back is printed, checked as it arrives
        columns = output_columns(ctx, intake, CREATED_LEAD_COLUMNS)
    # Fields are dot paths into the contract's lead schema; a contract that lists none
    # takes the fields as typed (`api -F` rules).
    body = lead_body(
        ctx, intake, typed_fields=opts.typed_fields, data=opts.data, stdin=ctx.ios.stdin
    )
    if body is None:
        body = create_body(
            typed_fields=opts.typed_fields,
            data=opts.data,
            stdin=ctx.ios.stdin,
            region=ctx.settings.get("region"),
        )

    credential = None if ctx.options.dry_run or not opts.wait else ctx.credential()
    if credential is not None and credential.kind.value == "source":
        raise UsageError(
            "--wait reads the lead back, which a source key may not do",
            hint="leave out --wait, or use an organization key or user token",
        )

    lead = require_object(
        ctx.client().call_json(intake, json_body=body),
        what="the new lead",
        required=("id",),
    )
    if opts.wait:
        assert tree is not None  # checked before sending
        lead = wait_for_lead(ctx, tree, lead, timeout=opts.wait_timeout)
    emit_object(ctx, lead, columns=columns)
    if opts.wait:
        return
    if isinstance(lead, dict) and lead.get("processingStatus") == "Pending" and lead.get("id"):
        ctx.ios.info(pending_lead_note(ctx, str(lead["id"])))


HELP = """Send one lead to intake (POST /leads) and print its id and processingStatus.

    Intake completes later: the answer is the lead with processingStatus Pending, which
    becomes Accepted or Rejected (see processingError) shortly after; read it back with
    `leadctl leads list --filter id=ID`. Fields are dot paths into the active contract's
    POST /leads schema (contact.firstName); one it closes out is exit 2 naming the
    closest, and required fields are checked before sending. Every phone-shaped field
    (by format, pattern, name or an E.164 description, however deep) is checked and sent
    in E.164; numbers without a country code use the profile's region. This is the one
    command a source-key profile may run. It is not retried after the request was sent
    (a retry could create the lead twice): if the outcome is unknown, leadctl exits 9 and
    says what to check.
    With --wait the lead is read back until intake settles it (GET /leads/{id} when the
    active contract has it, else `leads list --filter id=ID`) and printed then: exit 6
    when it is Rejected, 8 after --wait-timeout; not with a source key, which may not
    read leads.
    """

command = verb_command(Options, run, help=HELP)
