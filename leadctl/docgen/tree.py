"""The command tree as plain data: what completion scripts and man pages are made from.

It is read from the Click command objects Typer builds (``typer.main.get_command``) by
their public attributes only, so a new group, verb or option shows up in the generated
files without anything here changing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Literal

from leadctl.cli.generated_tree import generated_tree, pin_bundled
from leadctl.cli.picker import NAMED_ARGUMENTS, path_parameter

ValueKind = Literal["choice", "profile", "file", "directory", "text", "remote", "columns"]

# Parameter names whose values are profile names. Their candidates are read from the
# config file when TAB is pressed, so they are never frozen into a generated script.
PROFILE_PARAMS = frozenset({"profile", "save_profile"})
PROFILE_GROUP = "profile"
COLUMNS_PARAM = "columns"

_FILE_METAVARS = frozenset({"FILE", "PATH"})
_DIRECTORY_METAVARS = frozenset({"DIR", "DIRECTORY"})


@dataclass(frozen=True)
class Value:
    """What an option or argument takes; ``choices`` are only set for ``choice``."""

    kind: ValueKind
    metavar: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionSpec:
    names: tuple[str, ...]
    # The "off" names of a --x/--no-x pair.
    secondary_names: tuple[str, ...]
    help: str
    value: Value | None  # None: a flag
    multiple: bool
    default: str | None  # as --help shows it, when it does

    @property
    def all_names(self) -> tuple[str, ...]:
        return self.names + self.secondary_names


@dataclass(frozen=True)
class ArgumentSpec:
    name: str
    help: str
    value: Value
    required: bool
    variadic: bool


@dataclass(frozen=True)
class CommandSpec:
    path: tuple[str, ...]  # () is leadctl itself
    help: str
    epilog: str
    options: tuple[OptionSpec, ...]
    arguments: tuple[ArgumentSpec, ...]
    commands: tuple[CommandSpec, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else "leadctl"

    @property
    def full_name(self) -> str:
        return " ".join(("leadctl", *self.path))

    @property
    def is_group(self) -> bool:
        return bool(self.commands)

    def walk(self) -> Iterator[CommandSpec]:
        """This command and every command below it, depth first, in --help order."""
        yield self
        for command in self.commands:
            yield from command.walk()


def load_tree() -> CommandSpec:
    """The whole command tree with the bundled contract's verbs, every lazy group loaded:
    what the shipped files describe, never a contract a developer imported."""
    import typer

    from leadctl.cli.app import root

    command = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl", **command.context_settings)
    pin_bundled(ctx)
    return _command_spec(command, ctx, ())


def active_tree(click_ctx: Any) -> CommandSpec:
    """The whole command tree of this invocation: its profile's active contract decides
    the generated groups and verbs."""
    root_ctx = click_ctx.find_root()
    return _command_spec(root_ctx.command, root_ctx, ())


def _command_spec(command: Any, ctx: Any, path: tuple[str, ...]) -> CommandSpec:
    import typer

    children: list[CommandSpec] = []
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            child = command.get_command(ctx, name)
            if child is None or getattr(child, "hidden", False):
                continue
            child_ctx = typer.Context(child, parent=ctx, info_name=name, **child.context_settings)
            children.append(_command_spec(child, child_ctx, (*path, name)))
    params = [p for p in command.params if not getattr(p, "hidden", False)]
    options = [_option_spec(p, ctx, path) for p in params if p.param_type_name == "option"]
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        # Click builds this option's names from a set; the context has them in order.
        spec = _option_spec(help_option, ctx, path)
        names = tuple(name for name in ctx.help_option_names if name in spec.names)
        options.append(replace(spec, names=names))
    arguments = [
        _argument_spec(p, ctx, path, position)
        for position, p in enumerate(p for p in params if p.param_type_name == "argument")
    ]
    return CommandSpec(
        path=path,
        help=_clean(command.help),
        epilog=_clean(command.epilog),
        options=tuple(options),
        arguments=tuple(arguments),
        commands=tuple(children),
    )


def _clean(text: str | None) -> str:
    # Click shows nothing after a form feed in --help; neither do the generated docs. A line
    # of just "\b" is Click's mark for a paragraph not to rewrap: not text to print.
    kept = (text or "").split("\f", 1)[0]
    return "\n".join(line for line in kept.split("\n") if line != "\b").strip()


def _option_spec(param: Any, ctx: Any, path: tuple[str, ...]) -> OptionSpec:
    takes_value = not (getattr(param, "is_flag", False) or getattr(param, "count", False))
    return OptionSpec(
        names=tuple(param.opts),
        secondary_names=tuple(param.secondary_opts),
        help=_clean(getattr(param, "help", None)),
        value=_value(param, ctx, path) if takes_value else None,
        multiple=bool(param.multiple),
        default=_shown_default(param) if takes_value else None,
    )


def _shown_default(param: Any) -> str | None:
    default = param.default
    show = getattr(param, "show_default", False)
    if isinstance(show, str):
        return show
    if not show or callable(default):
        return None
    if default is None or default == () or default == []:
        return None
    return _choice_text(default)


def _argument_spec(param: Any, ctx: Any, path: tuple[str, ...], position: int) -> ArgumentSpec:
    value = _value(param, ctx, path)
    if value.kind == "text" and _listed(ctx, path, position):
        value = Value("remote", value.metavar)
    return ArgumentSpec(
        name=param.name,
        help=_clean(getattr(param, "help", None)),
        value=value,
        required=bool(param.required),
        variadic=param.nargs == -1,
    )


def _listed(ctx: Any, path: tuple[str, ...], position: int) -> bool:
    """Whether the argument fills a path parameter: on TAB the scripts then ask
    `leadctl __complete-values`, which offers the collection's items when the profile's
    active contract can list it (the id picker's rule, ``cli/picker.plan``), and nothing
    otherwise, without a request."""
    if len(path) != 2:
        return False
    if (path[0], path[1], position) in NAMED_ARGUMENTS:
        return True
    return path_parameter(generated_tree(ctx), path[0], path[1], position) is not None


def _choice_text(choice: Any) -> str:
    return str(choice.value) if isinstance(choice, Enum) else str(choice)


def _value(param: Any, ctx: Any, path: tuple[str, ...]) -> Value:
    metavar = param.metavar or param.name.upper()
    if param.name in PROFILE_PARAMS or (path[:1] == (PROFILE_GROUP,) and param.name == "name"):
        return Value("profile", metavar)
    if param.name == COLUMNS_PARAM and path:
        # The field paths of the verb's response schema, asked on TAB (no request).
        return Value("columns", metavar)
    choices = getattr(param.type, "choices", None)
    if choices:
        words = tuple(_choice_text(c) for c in choices)
        return Value("choice", param.metavar or "|".join(words), words)
    # Runs an `autocompletion=` callback once, with an empty prefix: what it returns is
    # frozen into the scripts, so such callbacks must list fixed words (e.g. setting keys).
    items = param.shell_complete(ctx, "")
    kinds = {item.type for item in items}
    plain = tuple(str(item.value) for item in items if item.type == "plain")
    if plain:
        return Value("choice", metavar, plain)
    alternatives = set(metavar.upper().split("|"))
    if "dir" in kinds or alternatives & _DIRECTORY_METAVARS:
        return Value("directory", metavar)
    # Typer's path type completes nothing itself (it leaves paths to the shell).
    if "file" in kinds or alternatives & _FILE_METAVARS or hasattr(param.type, "file_okay"):
        dir_only = getattr(param.type, "dir_okay", False) and not getattr(
            param.type, "file_okay", True
        )
        return Value("directory" if dir_only else "file", metavar)
    return Value("text", metavar)
