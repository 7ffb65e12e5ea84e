"""``leadctl alias set NAME EXPANSION``: a word that stands for a command line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.alias._shared import add_alias, check_alias, examples
from leadctl.config.aliases import stored_form
from leadctl.config.settings import Config, update_config
from leadctl.inputs.fields import read_source

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = examples(
    "leadctl alias set tx 'leads list --filter state=TX --limit 2'",
    "leadctl alias set state 'leads list --filter state=$1'",
    'leadctl alias set --shell ids \'leadctl leads list -o json --jq ".[].id" | head -n "$1"\'',
    "leadctl alias set tx --clobber 'leads list --filter state=TX'",
)


@dataclass(frozen=True)
class Options:
    name: Annotated[str, typer.Argument(help="The alias: one word, not a command's name.")]
    expansion: Annotated[
        str, typer.Argument(help="What it stands for, quoted as one argument; - reads stdin.")
    ]
    shell: Annotated[
        bool,
        typer.Option(
            "-s",
            "--shell",
            help="Run the expansion with sh -c (pipes, redirections); the arguments after "
            "the alias are $1, $2..., leadctl's credential variables stay out of it, and "
            "-p, --base-url, -o, --timeout or --debug given before it reach its leadctl "
            "commands as their LEADCTL_* variables.",
        ),
    ] = False
    clobber: Annotated[
        bool, typer.Option("--clobber", help="Replace an alias of the same name.")
    ] = False


def run(opts: Options, ctx: Context) -> None:

    expansion = opts.expansion
    if expansion == "-":
        expansion = read_source("-", what="alias set", stdin=ctx.ios.stdin)
    stored = stored_form(expansion, shell=opts.shell)
    check_alias(opts.name, stored)

    def store(config: Config) -> bool:
        return add_alias(config, opts.name, stored, clobber=opts.clobber)

    changed = update_config(ctx.env, store)
    ctx.ios.info(f"{'changed' if changed else 'added'} alias {opts.name}: {stored}")


HELP = """Make NAME stand for a leadctl command line (or, with --shell, a shell script).

`leadctl NAME ARGS...` then runs the expansion: $1, $2... in it become the arguments
after NAME, and the arguments no placeholder takes are appended, so global flags work
before and after an alias: with tx set as below, `leadctl -p sandbox tx -o json` runs
`leads list --filter state=TX --limit 2 -o json` on the sandbox, and with state set,
`leadctl state CA` lists the leads in CA. An expansion starting with ! is a shell alias,
as --shell. A name that is a command (a group, or one of the active contract's) is
refused: an alias never shadows a command."""

command = verb_command(Options, run, help=HELP)
