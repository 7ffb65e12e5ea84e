"""What ``contract show`` (and a stored import or pull) prints: the contract and its groups."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from leadctl.output import emit_list, emit_object, prints_as_received
from leadctl.output.columns import Column

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.store import ActiveIndex

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
LEFT_OUT_COLUMNS = (
    Column("operation", "left out"),
    Column("operationId"),
    Column("reasons"),
)
WARNING_COLUMNS = (
    Column("pointer", "default kept"),
    Column("message", "does not match its schema"),
)
GROUP_COLUMNS = (
    Column("group"),
    Column("tag"),
    Column("operations", kind="number"),
    Column("curated", kind="number"),
    Column("generated", kind="number"),
)


def summary(active: ActiveIndex, profile: str) -> dict[str, Any]:
    """What `contract show` prints: where the contract came from, and its groups."""
    index = active.index
    operations = active.listings()
    groups: dict[str, dict[str, Any]] = {}
    for op in operations:
        group = active.group(op.group)
        entry = groups.setdefault(
            op.group,
            {
                "group": op.group,
                "tag": group.tag if group is not None else None,
                "operations": 0,
                "curated": 0,
                "generated": 0,
            },
        )
        entry["operations"] += 1
        entry["generated" if op.generated else "curated"] += 1
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
        "curated": sum(1 for op in operations if not op.generated),
        "generated": sum(1 for op in operations if op.generated),
        "groups": list(groups.values()),
        "clashes": index.get("clashes", []),
        # Operations the contract has and leadctl left out (a defect), and why.
        "leftOut": index.get("leftOut", []),
        "ignored": index.get("ignored", []),
        # Defaults their schemas do not admit, kept as written: where, and what is wrong.
        "warnings": index.get("warnings", []),
    }


def print_summary(ctx: Context, data: Mapping[str, Any]) -> None:

    # Clashes of derived names are resolved quietly (-o json lists them all); one that
    # overrules the contract's own x-cli-name is worth a line.
    for clash in data.get("clashes", ()):
        if clash.get("explicit"):
            ctx.ios.warn(
                f"name clash: {' and '.join(clash['operations'])} all want "
                f"`{clash['group']} {clash['verb']}` (x-cli-name); they are "
                + ", ".join(f"`{name}`" for name in clash["resolved"])
            )
    # json and ndjson print the whole summary; the row formats print its groups. The
    # registry has no call for "this object as received, its list as rows", so this one
    # choice stays here.
    if prints_as_received(ctx):
        emit_object(ctx, data, columns=())
        return

    def draw(ctx: Context, groups: list[dict[str, Any]]) -> None:
        _draw_summary(ctx, data, groups)

    emit_list(ctx, data["groups"], columns=GROUP_COLUMNS, view=draw)


def _draw_summary(ctx: Context, data: Mapping[str, Any], groups: list[dict[str, Any]]) -> None:
    """For a person: the contract's fields, a blank line, then a table of its groups."""

    # A view runs only under table without --columns: these two calls draw tables. The
    # lists are drawn below as this command's own tables, so the object is its fields.
    fields = {key: value for key, value in data.items() if not isinstance(value, list)}
    emit_object(ctx, fields, columns=SUMMARY_COLUMNS)
    ctx.ios.stdout.write("\n")
    emit_list(ctx, groups, columns=GROUP_COLUMNS)
    if data.get("leftOut"):
        ctx.ios.stdout.write("\n")
        rows = [{**entry, "reasons": "; ".join(entry["reasons"])} for entry in data["leftOut"]]
        emit_list(ctx, rows, columns=LEFT_OUT_COLUMNS)
    if data.get("warnings"):
        ctx.ios.stdout.write("\n")
        emit_list(ctx, data["warnings"], columns=WARNING_COLUMNS)
    for problem in data.get("ignored", ()):
        ctx.ios.info(f"ignored (outside any operation): {problem}")
