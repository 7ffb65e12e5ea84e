"""``leadctl contract``: the OpenAPI contract generated commands come from, per profile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.store import ActiveIndex

app = typer.Typer(
    help="Show, import, pull and diff the service's OpenAPI contract.", no_args_is_help=True
)

SUMMARY_COLUMNS = (
    Column("profile"),
    Column("source"),
    Column("title"),
    Column("version"),
    Column("openapi"),
    Column("importedAt", kind="datetime"),
    Column("sha256"),
    Column("operations", kind="number"),
    Column("curated", kind="number"),
    Column("generated", kind="number"),
)
GROUP_COLUMNS = (
    Column("group"),
    Column("tag"),
    Column("operations", kind="number"),
    Column("curated", kind="number"),
    Column("generated", kind="number"),
)
OPERATION_COLUMNS = (
    Column("command"),
    Column("kind"),
    Column("method"),
    Column("path"),
    Column("operationId"),
    Column("retrySafe", kind="bool"),
    Column("credentials"),
    Column("summary"),
)
DIFF_COLUMNS = (
    Column("change"),
    Column("command"),
    Column("method"),
    Column("path"),
    Column("operation"),
    Column("details"),
)
SourceArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE|URL|-",
        help="An OpenAPI 3.0, 3.1 or 3.2 document (JSON or YAML): a file, - for stdin, or an "
        "https URL (the credential goes only to the profile's own host).",
    ),
]


def summary(active: ActiveIndex, profile: str) -> dict[str, Any]:
    """What `contract show` prints: where the contract came from, and its groups."""
    index = active.index
    operations = index.get("operations", [])
    groups: dict[str, dict[str, Any]] = {}
    for op in operations:
        entry = groups.setdefault(
            op["group"],
            {
                "group": op["group"],
                "tag": index["groups"].get(op["group"], {}).get("tag"),
                "operations": 0,
                "curated": 0,
                "generated": 0,
            },
        )
        entry["operations"] += 1
        entry["curated" if op.get("curated") else "generated"] += 1
    meta = index.get("contract", {})
    return {
        "profile": profile,
        "source": meta.get("source"),
        "title": meta.get("title"),
        "version": meta.get("version"),
        "openapi": meta.get("openapi"),
        "importedAt": meta.get("importedAt"),
        "sha256": meta.get("sha256"),
        "operations": len(operations),
        "curated": sum(1 for op in operations if op.get("curated")),
        "generated": sum(1 for op in operations if not op.get("curated")),
        "groups": list(groups.values()),
        "clashes": index.get("clashes", []),
    }


def _print_summary(ctx: Context, data: Mapping[str, Any]) -> None:
    from leadctl.output import emit_list, emit_object

    # Clashes of derived names are resolved quietly (-o json lists them all); one that
    # overrules the contract's own x-cli-name is worth a line.
    for clash in data.get("clashes", ()):
        if clash.get("explicit"):
            ctx.ios.warn(
                f"name clash: {' and '.join(clash['operations'])} all want "
                f"`{clash['group']} {clash['verb']}` (x-cli-name); they are "
                + ", ".join(f"`{name}`" for name in clash["resolved"])
            )
    if ctx.output_format in ("json", "ndjson"):
        emit_object(ctx, data, columns=())
        return
    if ctx.output_format == "table":
        emit_object(ctx, data, columns=SUMMARY_COLUMNS)
        ctx.ios.stdout.write("\n")
    emit_list(ctx, data["groups"], columns=GROUP_COLUMNS)


def _operation_rows(active: ActiveIndex) -> list[dict[str, Any]]:
    return [
        {
            "command": f"{op['group']} {op['verb']}",
            "kind": "curated" if op.get("curated") else "generated",
            "method": op["method"],
            "path": op["path"],
            "operationId": op.get("operationId"),
            "retrySafe": op.get("retrySafe"),
            "retryReason": op.get("retryReason"),
            # Empty: the operation takes no credential (security: []).
            "credentials": ",".join(op.get("kinds", ())) or "none",
            "summary": op.get("summary"),
        }
        for op in active.index.get("operations", [])
    ]


@app.command(
    epilog="Examples:\n\n"
    "  leadctl contract show\n\n"
    "  leadctl contract show --operations -o csv > operations.csv\n\n"
    "  leadctl -p sandbox contract show -o json | jq '.groups[] | {group, generated}'",
)
def show(
    typer_ctx: typer.Context,
    operations: Annotated[
        bool, typer.Option("--operations", help="List every operation and its command instead.")
    ] = False,
) -> None:
    """Show the active contract: where it came from, its version, operations per group.

    The active contract is the one imported or pulled for the profile's service (base
    URL), else, for the sandbox profile, the one the sandbox publishes, else the contract
    bundled with leadctl. Curated commands are counted by the operations they are bound to
    (METHOD and path template).

    --operations also shows each operation's retry safety and the credentials its
    contract security admits: a source key for an apiKey scheme or one whose name (or, for
    other schemes, description) mentions a source key; organization keys and user tokens
    for bearer, oauth2 and openIdConnect schemes; none for security: [].

    -o json prints one object with a groups array; csv, tsv and value print the groups
    (or, with --operations, the operations).
    """
    from leadctl.generated.tree import generated_tree

    ctx = get_context(typer_ctx)
    active = generated_tree(typer_ctx).active
    if operations:
        from leadctl.output import emit_list

        emit_list(ctx, _operation_rows(active), columns=OPERATION_COLUMNS)
        return
    _print_summary(ctx, summary(active, ctx.profile_name))


def _load_checked(ctx: Context, source: str) -> tuple[bytes, str, dict[str, Any]]:
    from leadctl.contract.fetch import parse_contract, read_contract
    from leadctl.contract.formats import to_31
    from leadctl.contract.validate import check_contract

    raw, label = read_contract(ctx, source)
    document = parse_contract(raw, what=label)
    check_contract(document, what=label)
    return raw, label, to_31(document)


def _store(
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
    _print_summary(ctx, data)
    ctx.ios.info(
        f"profile {profile!r} (and every profile of {_service(ctx)}) now uses {label}: "
        f"{data['operations']} operations, {data['curated']} with curated commands, "
        f"{data['generated']} as generated commands"
    )


def _service(ctx: Context) -> str:
    if ctx.settings.embedded_sandbox:
        return "the embedded sandbox"
    return ctx.settings.base_url or f"profile {ctx.settings.profile!r}"


@app.command(
    "import",
    epilog="Examples:\n\n"
    "  leadctl contract import openapi.json\n\n"
    "  curl -s https://api.example.com/openapi.json | leadctl contract import -\n\n"
    "  leadctl -p staging contract import https://staging.example.com/openapi.json",
)
def import_(typer_ctx: typer.Context, source: SourceArgument) -> None:
    """Validate an OpenAPI contract and make it the active one for the profile's service.

    OpenAPI 3.0, 3.1 and 3.2, JSON or YAML (Swagger 2.0 is refused). The document is checked
    against its OpenAPI version (and leadctl's x-leadctl-* extensions); an invalid one is
    exit 2 and changes nothing. It is stored per base URL under the cache dir
    (LEADCTL_CACHE_DIR), so every profile of the service sees it. A URL on the profile's
    host is fetched with its credential; any other https URL (a docs site) without one.
    """
    ctx = get_context(typer_ctx)
    ctx.settings  # noqa: B018 - an unknown --profile is exit 2 before anything is read
    raw, label, document = _load_checked(ctx, source)
    _store(ctx, raw, label, document)


@app.command(
    epilog="Examples:\n\n"
    "  leadctl contract pull\n\n"
    "  leadctl -p sandbox contract pull && leadctl -p sandbox contract show --operations\n\n"
    "  leadctl profile set contract_url https://api.example.com/v1/openapi.json",
)
def pull(typer_ctx: typer.Context) -> None:
    """Find the service's contract and make it the active one for every profile of it.

    Tried in order: the profile's contract_url; the URL a Link: rel="service-desc" header
    of the base URL names; /openapi.json, /openapi/v1.json and /swagger/v1/swagger.json
    under the base URL (the first that is found wins). The profile's credential goes only
    to its own host (an organization key or user token, never a source key); a URL on
    another host is fetched without one. The stored contract's ETag is sent as
    If-None-Match: an unchanged contract is not fetched again. Then validated and stored
    like `contract import`.
    """
    from leadctl.contract.discovery import Discovery, label
    from leadctl.contract.formats import to_31
    from leadctl.contract.store import context_key
    from leadctl.contract.validate import check_contract
    from leadctl.operations import active_index_of

    ctx = get_context(typer_ctx)
    ctx.settings  # noqa: B018 - an unknown --profile is exit 2 before anything is sent
    meta = active_index_of(ctx).index.get("contract", {})
    known = {}
    if active_index_of(ctx).key == context_key(ctx) and meta.get("etag"):
        known[str(meta.get("source"))] = str(meta["etag"])
    found = Discovery.from_context(ctx).discover(etag_for=known)
    source = label(found.url)
    if found.raw is None:
        ctx.ios.info(f"{source} is unchanged (ETag {found.etag}); nothing was stored")
        return
    document = parse_contract_document(found.raw, source)
    check_contract(document, what=source)
    _store(ctx, found.raw, source, to_31(document), etag=found.etag)


def parse_contract_document(raw: bytes, source: str) -> dict[str, Any]:
    from leadctl.contract.fetch import parse_contract

    return parse_contract(raw, what=source)


@app.command(
    epilog="Examples:\n\n"
    "  leadctl contract diff new-openapi.json\n\n"
    "  leadctl contract diff https://api.example.com/openapi.json -o json | jq '.[].operation'\n\n"
    "  leadctl contract diff openapi.json --columns change,command,details",
)
def diff(typer_ctx: typer.Context, source: SourceArgument) -> None:
    """Show operations added, removed or changed in FILE against the active contract.

    Operations are matched by METHOD and path template (one that only moved, by
    operationId). Changed means what a caller notices: operationId, path or method,
    parameters, body fields, responses, retry safety, credential kinds, pending rules,
    deprecation. The command column names each operation's command (the new
    contract's for added ones). Exit 0 whether or not anything changed.
    """

    from leadctl.contract.diff import diff_contracts
    from leadctl.generated.tree import generated_tree
    from leadctl.output import emit_list

    ctx = get_context(typer_ctx)
    active = generated_tree(typer_ctx).active
    raw, label, document = _load_checked(ctx, source)
    from leadctl.contract.formats import parse_document, to_31

    current = to_31(parse_document(active.contract_path.read_bytes(), what="the active contract"))
    changes = diff_contracts(current, document)
    commands = _commands(active.index)
    if any(change.change == "added" for change in changes):
        commands = {**_commands(_compile(raw, document, label)), **commands}
    rows = [change.to_json(commands.get(change.operation)) for change in changes]
    if ctx.output_format not in ("json", "ndjson"):
        for row in rows:
            row["details"] = "; ".join(row["details"])
    emit_list(ctx, rows, columns=DIFF_COLUMNS)
    counts = {kind: sum(1 for c in changes if c.change == kind) for kind in ("added", "removed")}
    changed = len(changes) - counts["added"] - counts["removed"]
    ctx.ios.info(
        f"{label} against the active contract: {counts['added']} added, "
        f"{counts['removed']} removed, {changed} changed"
    )


def _commands(index: Mapping[str, Any]) -> dict[str, str]:
    return {op["id"]: f"{op['group']} {op['verb']}" for op in index.get("operations", ())}


def _compile(raw: bytes, document: dict[str, Any], label: str) -> dict[str, Any]:
    from leadctl import __version__
    from leadctl.contract.index import compile_index, curated_command_names

    index, _schemas = compile_index(
        document,
        raw=raw,
        source=label,
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version=__version__,
    )
    return index


@app.command(
    epilog="Examples:\n\n  leadctl contract reset\n\n  leadctl -p sandbox contract reset",
)
def reset(typer_ctx: typer.Context) -> None:
    """Forget the imported contract of the profile's service: the bundled one (for the
    sandbox, the one it publishes) is active again for every profile of that service."""
    from leadctl.config import validate_profile_name
    from leadctl.contract.store import SANDBOX_KEY, context_key, remove

    ctx = get_context(typer_ctx)
    profile = validate_profile_name(ctx.settings.profile)
    key = context_key(ctx)
    if key is not None and remove(ctx.env, key):
        again = "the sandbox's published" if key == SANDBOX_KEY else "the bundled"
        ctx.ios.info(f"{_service(ctx)} uses {again} contract again (profile {profile!r})")
    else:
        ctx.ios.info(f"{_service(ctx)} had no imported contract (profile {profile!r})")
