"""Global options anywhere on the line (cli.md "Invocation"), as gh's persistent flags.

People recall a command and append ``-p prod`` or ``--debug`` at the end. Every group and
verb carries a copy of each option of the root command, so such a line parses as written:
Click reads it with that command's own table (``leads list --search -p`` searches for "-p";
``auth login --base-url`` is that verb's option; ``--`` ends options as usual). A copy keeps
the value given on the root context, beside the root's own, so a later value wins as when an
option is repeated before the group name.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

# Takes the root context once a copy recorded a value there.
Apply = Callable[[Any], None]


def persistent_copies(
    root_params: Iterable[Any], shown: Mapping[str, str], apply: Apply
) -> list[Any]:
    """Copies of the root's options for a group or verb: hidden, except those named in
    ``shown`` (with the help text each verb shows for them)."""
    copies = []
    for param in root_params:
        if getattr(param, "param_type_name", None) != "option":
            continue
        twin = copy.copy(param)
        twin.expose_value = False
        twin.hidden = param.name not in shown
        twin.help = shown.get(param.name, param.help)
        if twin.callback is None:  # --version keeps its own (it prints and exits)
            # None or False: nothing was given after this command's name.
            twin.default = False if getattr(param, "is_flag", False) else None
            twin.callback = _recorder(apply)
        copies.append(twin)
    return copies


def _recorder(apply: Apply) -> Callable[[Any, Any, Any], Any]:
    def record(ctx: Any, param: Any, value: Any) -> Any:
        if value is None or value is False:
            return value
        root = ctx.find_root()
        root.params[param.name] = value
        apply(root)
        return value

    return record


def attach(command: Any, copies: Sequence[Any]) -> None:
    """``command`` accepts the global options, except where its own option has that name."""
    own = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
    command.params.extend(twin for twin in copies if not own.intersection(twin.opts))


def given_on_the_line(args: Sequence[str], param: Any) -> str | None:
    """The last value of the root option ``param`` in ``args`` (before ``--``), read ahead
    of the parse: which generated commands exist depends on the profile a line names."""
    value = None
    for index, token in enumerate(args):
        if token == "--":
            break
        for name in param.opts:
            if token == name and index + 1 < len(args):
                following = args[index + 1]
                # A value that is an option is no profile: `-p` was another option's value.
                value = following if not following.startswith("-") else value
            elif name.startswith("--") and token.startswith(name + "="):
                value = token[len(name) + 1 :]
            elif not name.startswith("--") and token.startswith(name) and len(token) > 2:
                value = token[2:]
    return value


def flag_on_the_line(args: Sequence[str], param: Any) -> bool:
    """Whether the root flag ``param`` is in ``args`` (before ``--``), read ahead of the
    parse: a failure while the command tree is built (a verb's module that does not load)
    comes before any callback has seen ``--debug``, wherever on the line it was typed."""
    for token in args:
        if token == "--":
            return False
        if token in param.opts:
            return True
    return False
