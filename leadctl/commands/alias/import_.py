"""``leadctl alias import FILE|-``: aliases from a YAML file, as ``gh alias import``.

The file is gh's: a YAML mapping of name to expansion (``!`` first for a shell alias), so
a gh user's file of leadctl aliases reads as it is; JSON is YAML too, and a list of
``{name, expansion, shell}`` objects (what ``alias list -o json`` prints) is read back.
PyYAML is already one of leadctl's dependencies (contracts may be YAML). The file is read
within the contract reader's limits (a YAML alias bomb is refused before it is built).
Unlike gh, which skips the entries it cannot take, the import is all or nothing: every
problem is listed and nothing is stored, so a script can rely on its exit code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.alias._shared import add_alias, check_alias, examples
from leadctl.config.aliases import stored_form
from leadctl.config.settings import Config, update_config
from leadctl.contract.budget import Budget, check_yaml_events
from leadctl.errors import LeadctlError, UsageError
from leadctl.inputs.fields import read_source

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = examples(
    "leadctl alias import aliases.yml",
    "leadctl alias list -o json | leadctl alias import - --clobber",
)
# An alias file is a few lines; far below the contract reader's size limit.
MAX_BYTES = 1024 * 1024
SECONDS = 10.0


@dataclass(frozen=True)
class Options:
    file: Annotated[
        str, typer.Argument(metavar="FILE", help="YAML of name: expansion lines; - reads stdin.")
    ]
    clobber: Annotated[
        bool, typer.Option("--clobber", help="Replace aliases of the same names.")
    ] = False


def _entries(document: Any, what: str) -> dict[str, str]:
    """name -> stored expansion, from a mapping or `alias list -o json`'s list."""
    if isinstance(document, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in document.items()
    ):
        return {name: stored_form(value, shell=False) for name, value in document.items()}
    if isinstance(document, list) and all(
        isinstance(item, dict)
        and isinstance(item.get("name"), str)
        and isinstance(item.get("expansion"), str)
        for item in document
    ):
        return {
            item["name"]: stored_form(item["expansion"], shell=item.get("shell") is True)
            for item in document
        }
    raise UsageError(
        f"{what} holds no aliases: expected lines of `name: expansion`",
        hint="as gh writes them, e.g.  tx: leads list --filter state=TX",
    )


def read_aliases(text: str, what: str, ctx: Context) -> dict[str, str]:
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise UsageError(f"{what} is over {MAX_BYTES // 1024} KiB: not an alias file")
    import yaml

    check_yaml_events(text, Budget(what, seconds=SECONDS, monotonic=ctx.clock.monotonic, flag=""))
    try:
        document = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as error:
        raise UsageError(f"{what} is not YAML: {error}") from None
    return _entries(document, what)


def run(opts: Options, ctx: Context) -> None:

    what = "stdin" if opts.file == "-" else opts.file
    entries = read_aliases(
        read_source(opts.file, what="alias import", stdin=ctx.ios.stdin), what, ctx
    )
    problems = []
    for name, stored in sorted(entries.items()):
        try:
            check_alias(name, stored)
        except LeadctlError as error:
            problems.append(error.message)

    def store(config: Config) -> list[str]:
        changed = []
        for name, stored in sorted(entries.items()):
            try:
                if add_alias(config, name, stored, clobber=opts.clobber):
                    changed.append(name)
            except LeadctlError as error:
                problems.append(error.message)
        if problems:
            raise UsageError(
                f"{what}: nothing imported: " + "; ".join(problems),
                hint="--clobber replaces existing aliases" if not opts.clobber else None,
            )
        return changed

    changed = update_config(ctx.env, store)
    added = len(entries) - len(changed)
    ctx.ios.info(
        f"imported {len(entries)} aliases from {what}: {added} added, {len(changed)} changed"
    )


HELP = """Add the aliases of a YAML file of name: expansion lines (- reads stdin).

The file is gh's: `tx: leads list --filter state=TX`, one line per alias, with ! first
for a shell alias; `alias list -o json` output reads back too. All or nothing: a name
that is a command or an alias that exists (without --clobber) is exit 2, nothing stored."""

command = verb_command(Options, run, help=HELP)
