"""``leadctl completion SHELL``: the static completion script for bash, zsh or fish."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import FromInvocation, verb_command
from leadctl.docgen.completion import render_completion
from leadctl.docgen.tree import CommandSpec, active_tree

if TYPE_CHECKING:
    from leadctl.context import Context


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@dataclass(frozen=True)
class Options:
    shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="bash, zsh or fish.")]
    # The command tree of the active contract, which the script completes.
    tree: Annotated[CommandSpec | None, FromInvocation(active_tree)] = None


def run(opts: Options, ctx: Context) -> None:
    if opts.tree is None:
        raise RuntimeError("completion needs the command tree in Options")
    ctx.ios.stdout.write(render_completion(opts.shell.value, opts.tree))


EPILOG = (
    "Examples:\n\n"
    "  leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl\n\n"
    "  mkdir -p ~/.zfunc && leadctl completion zsh > ~/.zfunc/_leadctl\n\n"
    "  leadctl completion fish > ~/.config/fish/completions/leadctl.fish"
)


HELP = """Print the completion script for SHELL.

    The script is static: pressing TAB runs no Python. It completes groups, verbs,
    options, their fixed values (output formats, kinds, ...) and profile names, which
    it reads from config.toml. Groups and verbs are those of the active contract (-p
    picks the profile): after `leadctl contract pull` or `contract import`, print the
    script again to complete the commands the service's contract adds. With leadctl's
    bundled contract it is the script that ships with leadctl.
    """

command = verb_command(Options, run, help=HELP)
