"""``leadctl sources update``: change a lead source's fields (PUT /sources/{id})."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.errors import UsageError
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.curated_fields import FlagField

NAME_MAX_LENGTH = 255
# Fields only the older form of PUT /sources/{id} has; a body with any of them is that
# form, where the reference says name is required.
OLDER_FORM_FIELDS = ("id", "enabled", "businessId")

# The flag that sets each field (for errors naming what to give).
FIELD_FLAGS = {
    "name": "--name",
    "description": "--description",
    "allowedStates": "--allowed-state",
    "allowedProducts": "--allowed-product",
    "defaultTagIds": "--default-tag-id",
    "defaultTagNames": "--default-tag-name",
    "requiresConsentCertificate": "--requires-consent-certificate",
}

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

    source_id: str
    name: str | None = None
    description: str | None = None
    allowed_states: tuple[str, ...] = ()
    allowed_products: tuple[str, ...] = ()
    default_tag_ids: tuple[str, ...] = ()
    default_tag_names: tuple[str, ...] = ()
    requires_consent_certificate: bool | None = None
    # --data as given: JSON, @FILE or - (stdin); run reads it, from ctx.ios.stdin for -.
    data: str | None = None

    def flags(self) -> dict[str, Any]:
        """The field flags under the service's names; a list flag not given is None."""
        return {
            "name": self.name,
            "description": self.description,
            "allowedStates": list(self.allowed_states) or None,
            "allowedProducts": list(self.allowed_products) or None,
            "defaultTagIds": list(self.default_tag_ids) or None,
            "defaultTagNames": list(self.default_tag_names) or None,
            "requiresConsentCertificate": self.requires_consent_certificate,
        }

    def given_flags(self) -> list[FlagField]:
        """The flags given, with the field each sets, for the check against the contract."""
        from leadctl.curated_fields import flag_fields

        consent = self.requires_consent_certificate
        names = {
            **FIELD_FLAGS,
            "requiresConsentCertificate": "--requires-consent-certificate"
            if consent is not False
            else "--no-requires-consent-certificate",
        }
        return flag_fields({field: (names[field], value) for field, value in self.flags().items()})


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
    from leadctl.fields import load_data_option
    from leadctl.operations import curated
    from leadctl.output import emit_object
    from leadctl.response_columns import output_columns

    operation = curated(ctx, "PUT", "/sources/{id}")
    columns = output_columns(ctx, operation, SOURCE_COLUMNS)
    data = opts.data
    loaded = load_data_option(data, stdin=ctx.ios.stdin) if data is not None else None
    body = source_update_body(loaded, opts.flags())
    from leadctl.commands.sources.rotation import refuse_new_key_flag
    from leadctl.curated_fields import check_flag_fields
    from leadctl.replace import replace_resource_json

    check_flag_fields(ctx, operation, opts.given_flags())
    refuse_new_key_flag(ctx, operation, body)
    source = replace_resource_json(
        ctx,
        operation,
        path_params={"id": opts.source_id},
        changes=body,
        what="the updated source",
        flags=FIELD_FLAGS,
    )
    emit_object(ctx, source, columns=columns)


def update(
    typer_ctx: typer.Context,
    source_id: Annotated[str, typer.Argument(metavar="ID", help="The source to update.")],
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="TEXT", help="New name (at most 255 characters)."),
    ] = None,
    description: Annotated[
        str | None, typer.Option("--description", metavar="TEXT", help="New description.")
    ] = None,
    allowed_states: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-state",
            metavar="S",
            help="A state or region accepted; repeat for several (replaces the allowlist).",
        ),
    ] = None,
    allowed_products: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-product",
            metavar="P",
            help="A product accepted; repeat for several (replaces the allowlist).",
        ),
    ] = None,
    default_tag_ids: Annotated[
        list[str] | None,
        typer.Option(
            "--default-tag-id",
            metavar="T",
            help="A tag id given to the source's new leads; repeat for several.",
        ),
    ] = None,
    default_tag_names: Annotated[
        list[str] | None,
        typer.Option(
            "--default-tag-name",
            metavar="N",
            help="A tag name given to the source's new leads; repeat for several.",
        ),
    ] = None,
    requires_consent_certificate: Annotated[
        bool | None,
        typer.Option(
            "--requires-consent-certificate/--no-requires-consent-certificate",
            help="Whether leads must carry a consent certificate.",
            show_default=False,
        ),
    ] = None,
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="More fields as a JSON object (e.g. enabled, businessId); flags win.",
        ),
    ] = None,
) -> None:
    """Update a lead source (PUT /sources/{id}) and print it.

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
    opts = Options(
        source_id=source_id,
        name=name,
        description=description,
        allowed_states=tuple(allowed_states or ()),
        allowed_products=tuple(allowed_products or ()),
        default_tag_ids=tuple(default_tag_ids or ()),
        default_tag_names=tuple(default_tag_names or ()),
        requires_consent_certificate=requires_consent_certificate,
        data=data,
    )
    run(opts, get_context(typer_ctx))
