"""What several ``contract`` verbs share: the FILE|URL|- argument, reading and checking a
contract, storing it for the profile's service."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands.contract.summary import print_summary, summary

if TYPE_CHECKING:
    from leadctl.context import Context

SourceArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE|URL|-",
        help="An OpenAPI 3.0, 3.1 or 3.2 document (JSON or YAML): a file, - for stdin, or an "
        "https URL (the credential goes only to the profile's own host).",
    ),
]


def load_checked(ctx: Context, source: str) -> tuple[bytes, str, dict[str, Any]]:
    from leadctl.contract.fetch import parse_contract, read_contract
    from leadctl.contract.formats import to_31
    from leadctl.contract.validate import check_contract

    raw, label = read_contract(ctx, source)
    document = parse_contract(raw, what=label)
    check_contract(document, what=label)
    return raw, label, to_31(document)


def store(
    ctx: Context, raw: bytes, label: str, document: dict[str, Any], etag: str | None = None
) -> None:
    from leadctl.config import validate_profile_name
    from leadctl.contract.store import context_key, save

    profile = validate_profile_name(ctx.settings.profile)
    key = context_key(ctx)
    if ctx.options.dry_run or key is None:
        ctx.ios.info(f"dry run: {label} is a valid OpenAPI contract; nothing was stored")
        return
    active = save(
        ctx.env,
        key,
        raw,
        document,
        source=label,
        imported_at=ctx.clock.now().isoformat(timespec="seconds").replace("+00:00", "Z"),
        etag=etag,
    )
    data = summary(active, profile)
    print_summary(ctx, data)
    ctx.ios.info(
        f"profile {profile!r} (and every profile of {service_name(ctx)}) now uses {label}: "
        f"{data['operations']} operations, {data['curated']} with curated commands, "
        f"{data['generated']} as generated commands"
    )


def service_name(ctx: Context) -> str:
    if ctx.settings.embedded_sandbox:
        return "the embedded sandbox"
    return ctx.settings.base_url or f"profile {ctx.settings.profile!r}"
