"""``leadctl sources update``: change a lead source's fields (PUT /sources/{id})."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._body_flags import BodyFlag, field_flags, given_body_flags
from leadctl.commands._verb import verb_command
from leadctl.commands.sources.rotation import refuse_new_key_flag
from leadctl.contract.curated_fields import FlagField, check_flag_fields
from leadctl.contract.operations import curated
from leadctl.errors import UsageError
from leadctl.inputs.fields import load_data_option
from leadctl.output import emit_object
from leadctl.output.columns import Column
from leadctl.output.response_columns import output_columns
from leadctl.verbkit.replace import replace_resource_json

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.curated_fields import FlagField

NAME_MAX_LENGTH = 255
# Fields only the older form of PUT /sources/{id} has; a body with any of them is that
# form, where the reference says name is required.
OLDER_FORM_FIELDS = ("id", "enabled", "businessId")

SOURCE_COLUMNS = (
    Column("id"),
    Column("name"),
    Column("enabled", kind="bool"),
    Column("allowedStates"),
    Column("allowedProducts"),
    Column("requiresConsentCertificate", kind="bool"),
    Column("apiKeyPreview"),
    Column("apiKeyRotatedAt", kind="datetime"),
    Column("modifiedAt", kind="datetime"),
)

EPILOG = (
    "Examples:\n\n"
    "  leadctl sources update SOURCE_ID --allowed-state CA --allowed-state NV "
    "--requires-consent-certificate\n\n"
    "  leadctl sources update SOURCE_ID --default-tag-name 'web form' -o json | jq .defaultTags\n\n"
    "  leadctl sources update SOURCE_ID --name 'Web form' --data '{\"enabled\": false}'"
)


@dataclass(frozen=True)
class Options:
    """The source and the fields to change; None (or empty) means not given."""

    source_id: Annotated[str, typer.Argument(metavar="ID", help="The source to update.")]
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="TEXT", help="New name (at most 255 characters)."),
        BodyFlag(),
    ] = None
    description: Annotated[
        str | None,
        typer.Option("--description", metavar="TEXT", help="New description."),
        BodyFlag(),
    ] = None
    allowed_states: Annotated[
        tuple[str, ...],
        typer.Option(
            "--allowed-state",
            metavar="S",
            help="A state or region accepted; repeat for several (replaces the allowlist).",
        ),
        BodyFlag(path="allowedStates"),
    ] = ()
    allowed_products: Annotated[
        tuple[str, ...],
        typer.Option(
            "--allowed-product",
            metavar="P",
            help="A product accepted; repeat for several (replaces the allowlist).",
        ),
        BodyFlag(path="allowedProducts"),
    ] = ()
    default_tag_ids: Annotated[
        tuple[str, ...],
        typer.Option(
            "--default-tag-id",
            metavar="T",
            help="A tag id given to the source's new leads; repeat for several.",
        ),
        BodyFlag(path="defaultTagIds"),
    ] = ()
    default_tag_names: Annotated[
        tuple[str, ...],
        typer.Option(
            "--default-tag-name",
            metavar="N",
            help="A tag name given to the source's new leads; repeat for several.",
        ),
        BodyFlag(path="defaultTagNames"),
    ] = ()
    requires_consent_certificate: Annotated[
        bool | None,
        typer.Option(
            "--requires-consent-certificate/--no-requires-consent-certificate",
            help="Whether leads must carry a consent certificate.",
            show_default=False,
        ),
        BodyFlag(),
    ] = None
    # --data as given: JSON, @FILE or - (stdin); run reads it, from ctx.ios.stdin for -.
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="More fields as a JSON object (e.g. enabled, businessId); flags win.",
        ),
    ] = None

    def flags(self) -> dict[str, Any]:
        """The field flags given, under the service's names (a repeated flag as a list)."""
        return {
            flag.field: list(value) if isinstance(value, tuple) else value
            for flag, value in given_body_flags(self).values()
        }

    def given_flags(self) -> list[FlagField]:
        """The flags given as typed, with the field each sets, for the check against the
        contract."""

        sent = self.flags()
        return [
            FlagField(flag=flag.as_typed(value), path=flag.field, value=sent[flag.field])
            for flag, value in given_body_flags(self).values()
        ]


def source_update_body(data: Any, flags: dict[str, Any]) -> dict[str, Any]:
    """The PUT body: ``--data`` with the given flags merged over it, checked before sending."""
    if data is not None and not isinstance(data, dict):
        raise UsageError("--data must be a JSON object (the Source fields to change)")
    body: dict[str, Any] = dict(data or {})
    body.update({key: value for key, value in flags.items() if value is not None})
    if not body:
        raise UsageError(
            "nothing to update: give at least one field flag or --data",
            hint="run `leadctl sources update --help` for the fields",
        )
    name = body.get("name")
    if isinstance(name, str) and len(name) > NAME_MAX_LENGTH:
        raise UsageError(
            f"the name is {len(name)} characters long; the service accepts at most "
            f"{NAME_MAX_LENGTH}"
        )
    if "apiKey" in body:
        raise UsageError(
            "apiKey cannot be set: the service never stores a key you choose",
            hint="issue a new key with `leadctl sources rotate ID`",
        )
    older = [key for key in OLDER_FORM_FIELDS if key in body]
    if older and "name" not in body:
        raise UsageError(
            f"{', '.join(older)} belong to the older form of the update, which requires "
            "the name as well",
            hint="add --name with the source's (current or new) name",
        )
    return body


def run(opts: Options, ctx: Context) -> None:
    """Check the body, send it (merged over a read where the contract wants the whole
    source), print the updated source."""

    operation = curated(ctx, "PUT", "/sources/{id}")
    columns = output_columns(ctx, operation, SOURCE_COLUMNS)
    data = opts.data
    loaded = load_data_option(data, stdin=ctx.ios.stdin) if data is not None else None
    body = source_update_body(loaded, opts.flags())

    check_flag_fields(ctx, operation, opts.given_flags())
    refuse_new_key_flag(ctx, operation, body)
    source = replace_resource_json(
        ctx,
        operation,
        path_params={"id": opts.source_id},
        changes=body,
        what="the updated source",
        flags=field_flags(Options),
    )
    emit_object(ctx, source, columns=columns)


HELP = """Update a lead source (PUT /sources/{id}) and print it.

    Only the fields you give are sent when the active contract takes a partial update.
    Where the contract's update requires fields you did not give, the source is read first
    (GET /sources/{id}), your changes are merged over it and the whole source is sent, with
    If-Match when the read carried an ETag (a change made meanwhile is exit 6); --dry-run
    shows that body, secrets masked. Of the read, read-only fields and the intake key are
    not sent back, and a required field the read has in another shape (tag names from its
    tag objects) is derived from it. A flag whose field the active contract names
    otherwise is exit 2 naming its fields. A list flag replaces the whole list; to empty
    one, send it with --data '{"allowedStates": []}'.

    --data carries anything else, including the older form's fields (enabled, businessId),
    which the service takes only with the name. A name over 255 characters is refused
    before sending. Rotate the intake key with `leadctl sources rotate`.
    """

command = verb_command(Options, run, help=HELP)
