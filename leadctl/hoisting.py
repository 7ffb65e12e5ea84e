"""Global options anywhere on the line (cli.md "Invocation").

People recall a command and append ``-p prod`` or ``--debug`` at the end. Click only reads
the root's options before the group name, so every root option found after it is moved,
with its value, to just before the group name. The root options are read from the root
command's own parameters, so an option added to the root later is moved too.

A token stays where it is when it is the command's own option (``auth login --base-url``
is that verb's option), the value of an option (``--search -p`` searches for "-p"), or
comes after ``--``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

# The command at a path of names below the root (("leads",), ("leads", "list")), or None.
Resolve = Callable[[Sequence[str]], Any]


class OptionNames:
    """Option names of one command, and whether each takes a value."""

    def __init__(self, takes_value: dict[str, bool]) -> None:
        self.takes_value = takes_value

    @classmethod
    def of(cls, params: Iterable[Any], extra_flags: Iterable[str] = ()) -> OptionNames:
        table = {name: False for name in extra_flags}
        for param in params:
            if getattr(param, "param_type_name", None) != "option":
                continue
            valued = not (getattr(param, "is_flag", False) or getattr(param, "count", False))
            for name in (*param.opts, *param.secondary_opts):
                table[name] = valued
        return cls(table)

    def match(self, token: str) -> tuple[bool, bool] | None:
        """(takes a value, value attached to the token) when ``token`` is one of these."""
        if token.startswith("--"):
            name, equals, _value = token.partition("=")
            if name in self.takes_value:
                return self.takes_value[name], bool(equals)
            return None
        if token.startswith("-") and len(token) >= 2:
            name = token[:2]
            if name not in self.takes_value:
                return None
            if len(token) == 2:
                return self.takes_value[name], False
            if self.takes_value[name]:
                return True, True  # -pprod
        return None


def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def _command_names(command: Any) -> OptionNames:
    # -h/--help of the command itself never move: `leads list --help` is that verb's help.
    return OptionNames.of(command.params, extra_flags=("-h", "--help"))


def needs_hoisting(args: Sequence[str], root: OptionNames) -> bool:
    """Whether any token after the first positional one could be a root option."""
    seen_positional = False
    index = 0
    while index < len(args):
        token = args[index]
        if token == "--":
            return False
        found = root.match(token)
        if not seen_positional:
            if found is not None:
                index += 2 if found[0] and not found[1] else 1
                continue
            if not token.startswith("-"):
                seen_positional = True
        elif found is not None:
            return True
        index += 1
    return False


def group_index(args: Sequence[str], root: OptionNames) -> int:
    """Where the first token that is no root option (nor its value) is; len(args) if none."""
    index = 0
    while index < len(args) and (found := root.match(args[index])) is not None:
        index += 2 if found[0] and not found[1] else 1
    return index


def hoist_global_options(args: Sequence[str], root: OptionNames, resolve: Resolve) -> list[str]:
    """``args`` with every root option given after the group name moved before it."""
    args = list(args)
    if not needs_hoisting(args, root):
        return args
    # Root options already before the group name stay where they are.
    index = group_index(args, root)
    if index >= len(args) or args[index].startswith("-"):
        return args  # an unknown option up front: Click reports it
    head, group_at = args[:index], index
    hoisted: list[str] = []
    kept: list[str] = [args[group_at]]
    path = [args[group_at]]
    command = resolve(path)
    index = group_at + 1
    # Past a name that is no command the line fails anyway; its root options are still
    # hoisted, so the error's hints are for the profile the line names.
    while index < len(args):
        token = args[index]
        if token == "--":
            break
        own = None if command is None else _command_names(command).match(token)
        if own is not None:
            width = 2 if own[0] and not own[1] else 1
            kept.extend(args[index : index + width])
            index += width
            continue
        found = root.match(token)
        if found is not None:
            width = 2 if found[0] and not found[1] else 1
            hoisted.extend(args[index : index + width])
            index += width
            continue
        kept.append(token)
        index += 1
        if command is not None and not token.startswith("-") and _is_group(command):
            path.append(token)
            command = resolve(path)
    kept.extend(args[index:])
    return [*head, *hoisted, *kept]


# -- finding the group and verb a line names, before Click parses it ---------------------


class _Silent:
    """Stands in for the IOStreams while looking ahead: the real parse says it all again."""

    def warn(self, message: str) -> None:
        pass


class _LookAheadObj:
    """What the generated tree reads from the root's obj: the environment and the streams."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self.ios = _Silent()


def _profile_given(command: Any, args: Sequence[str]) -> str | None:
    """The last value of the root's profile option anywhere before ``--``."""
    names: list[str] = next((p.opts for p in command.params if p.name == "profile"), [])
    value = None
    for index, token in enumerate(args):
        if token == "--":
            break
        for name in names:
            if token == name and index + 1 < len(args):
                value = args[index + 1]
            elif name.startswith("--") and token.startswith(name + "="):
                value = token[len(name) + 1 :]
            elif not name.startswith("--") and token.startswith(name) and len(token) > 2:
                value = token[2:]
    return value


def look_ahead(command: Any, args: Sequence[str], env: Mapping[str, str]) -> Resolve:
    """Finds the group and verb a line names, to tell their options from global ones.

    Only called when a global option may follow the group name. The profile decides which
    generated commands exist, so the look-ahead uses the one given anywhere on the line.
    """
    import typer

    cache: dict[tuple[str, ...], Any] = {}
    root_ctx = typer.Context(command, info_name="leadctl", obj=_LookAheadObj(env))
    root_ctx.params["profile"] = _profile_given(command, args)

    def resolve(path: Sequence[str]) -> Any:
        key = tuple(path)
        if key not in cache:
            ctx, current = root_ctx, command
            for name in path:
                current = current.get_command(ctx, name) if current is not None else None
                if current is None:
                    break
                ctx = typer.Context(current, parent=ctx, info_name=name)
            cache[key] = current
        return cache[key]

    return resolve


def global_options_first(command: Any, args: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """``args`` of the root ``command`` with its options moved before the group name."""
    root = OptionNames.of(command.params)
    if not needs_hoisting(args, root):
        return list(args)
    return hoist_global_options(args, root, look_ahead(command, args, env))
