"""``leadctl help [GROUP [VERB]]``: the help of leadctl, a group or a verb, as gh has it.

``leadctl help leads list`` prints what ``leadctl leads list --help`` prints, for the
active contract's commands too; ``--man`` prints the manual page of leadctl or a group
instead, generated from the same tree (so a contract's verbs are in it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl import __version__
from leadctl.cli.suggest import unknown_command
from leadctl.commands._verb import FromInvocation, verb_command
from leadctl.commands.help.topics import TOPICS
from leadctl.docgen.man import render_group_page, render_root_page
from leadctl.docgen.tree import active_tree
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

# The widest a topic's text is set, however wide the terminal (a line longer reads badly).
TOPIC_WIDTH = 80

EPILOG = (
    "Topics:\n\n"
    + "\n\n".join(f"  {name}: {line}" for name, (line, _text) in TOPICS.items())
    + "\n\nExamples:\n\n"
    "  leadctl help leads list\n\n"
    "  leadctl help exit-codes\n\n"
    "  leadctl -p prod help sources\n\n"
    "  leadctl help --man sources | man -l -"
)


def _root_context(click_ctx: typer.Context) -> Any:
    return click_ctx.find_root()


@dataclass(frozen=True)
class Options:
    names: Annotated[
        tuple[str, ...],
        typer.Argument(
            metavar="[GROUP [VERB] | TOPIC]",
            help="The command to show the help of, or a topic (environment, exit-codes, "
            "formatting, retries).",
        ),
    ] = ()
    man: Annotated[
        bool,
        typer.Option(
            "--man",
            help="Print the manual page (roff) of leadctl or GROUP instead, with the "
            "active contract's commands; read it with `man -l -`.",
        ),
    ] = False
    # The root Click context, which the commands named are looked up below.
    root: Annotated[Any, FromInvocation(_root_context)] = None


def run(opts: Options, ctx: Context) -> None:
    """Prints the help of the command ``opts.names`` names below the root Click context
    ``opts.root`` (or its manual page)."""
    root = opts.root
    topic = TOPICS.get(opts.names[0]) if len(opts.names) == 1 else None
    if topic is not None and not opts.man:
        width = min(ctx.ios.terminal_width(), TOPIC_WIDTH)
        ctx.ios.data_out().write(topic[1](width) + "\n")
        return
    target = _resolve(root, opts.names)
    if opts.man:
        ctx.ios.stdout.write(_man_page(target, opts.names))
        return
    ctx.ios.stdout.write(target.get_help() + "\n")


def _resolve(root: Any, names: tuple[str, ...]) -> Any:
    """The Click context of the command at ``names`` (the root for none)."""

    current = root
    path: list[str] = []
    for name in names:
        command = current.command
        found = command.get_command(current, name) if hasattr(command, "list_commands") else None
        if found is None:
            if not hasattr(command, "list_commands"):
                raise UsageError(
                    f"`{' '.join(['leadctl', *path])}` has no subcommand {name!r}",
                    hint=f"run `leadctl help {' '.join(path)}` for its usage",
                )
            raise unknown_command(
                name,
                [*command.list_commands(current), *(TOPICS if not path else ())],
                command_path=" ".join(["leadctl", "help", *path]),
            )
        context_class = getattr(found, "context_class", typer.Context)
        current = context_class(found, parent=current, info_name=name)
        path.append(name)
    return current


def _man_page(target: Any, names: tuple[str, ...]) -> str:
    from datetime import date

    if len(names) > 1:
        raise UsageError(
            "manual pages are per group: `leadctl help --man GROUP`",
            hint=f"the page of {names[0]!r} describes every verb of it",
        )
    tree = active_tree(target)
    today = date.today().isoformat()
    if not names:
        return render_root_page(tree, date=today, version=__version__)
    group = next(command for command in tree.commands if command.name == names[0])
    return render_group_page(group, date=today, version=__version__)


HELP = """Show the help of leadctl, a group or a verb, or a topic.

    `leadctl help leads list` is `leadctl leads list --help`; `leadctl help exit-codes`
    and the other topics below are what the manual page says beyond the commands. Commands generated
    from the active contract have help too; -p picks the profile, and so the contract.
    """

command = verb_command(Options, run, help=HELP)
