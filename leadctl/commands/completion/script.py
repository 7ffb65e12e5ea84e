"""``leadctl completion SHELL``: the static completion script for bash, zsh or fish."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._common import get_context
from leadctl.docgen.completion import render_completion
from leadctl.docgen.tree import active_tree

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.docgen.tree import CommandSpec


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@dataclass(frozen=True)
class Options:
    shell: Shell


def run(opts: Options, ctx: Context, tree: CommandSpec) -> None:

    ctx.ios.stdout.write(render_completion(opts.shell.value, tree))


EPILOG = (
    "Examples:\n\n"
    "  leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl\n\n"
    "  mkdir -p ~/.zfunc && leadctl completion zsh > ~/.zfunc/_leadctl\n\n"
    "  leadctl completion fish > ~/.config/fish/completions/leadctl.fish"
)


def completion(
    typer_ctx: typer.Context,
    shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="bash, zsh or fish.")],
) -> None:
    """Print the completion script for SHELL.

    The script is static: pressing TAB runs no Python. It completes groups, verbs,
    options, their fixed values (output formats, kinds, ...) and profile names, which
    it reads from config.toml. Groups and verbs are those of the active contract (-p
    picks the profile): after `leadctl contract pull` or `contract import`, print the
    script again to complete the commands the service's contract adds. With leadctl's
    bundled contract it is the script that ships with leadctl.
    """

    run(Options(shell), get_context(typer_ctx), active_tree(typer_ctx))
