"""Aliases at dispatch: the root asks here only for a first word that names no command.

config.toml is looked at as bytes first (no TOML parse, no settings module) and parsed only
when it has an ``aliases`` table, so a line that is no alias costs one small file read.
A plain alias is expanded into the line the root resolves again; a shell alias is a command
of its own that runs ``sh -c`` with the arguments after it as ``$1``, ``$2``...
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from leadctl.config.dirs import ALIASES_TABLE, config_mentions
from leadctl.errors import LeadctlError, UsageError

if TYPE_CHECKING:
    from leadctl.config.aliases import Alias

# The global options a shell alias's commands get, through the variables leadctl reads;
# given before a shell alias, they are set in its environment for the leadctl it runs.
SHELL_ALIAS_VARIABLES = {
    "profile": "LEADCTL_PROFILE",
    "base_url": "LEADCTL_BASE_URL",
    "output": "LEADCTL_OUTPUT",
    "timeout": "LEADCTL_TIMEOUT",
    "debug": "LEADCTL_DEBUG",
}


def config_has_aliases(env: Mapping[str, str]) -> bool:
    return config_mentions(env, ALIASES_TABLE)


def find_alias(env: Mapping[str, str], name: str) -> Alias | None:
    """The alias ``name``, if config.toml has one (a broken config is reported)."""
    if not config_has_aliases(env):
        return None
    from leadctl.config.aliases import configured_aliases  # an alias may be in the file

    return configured_aliases(env).get(name)


def help_rows(env: Mapping[str, str]) -> list[tuple[str, str]]:
    """The aliases as `leadctl --help` lists them (a broken config lists none: the command
    run next says what is wrong)."""
    if not config_has_aliases(env):
        return []
    from leadctl.config.aliases import configured_aliases

    try:
        aliases = configured_aliases(env)
    except LeadctlError:
        return []
    return [
        (name, ("shell: " if alias.shell else "") + alias.command)
        for name, alias in sorted(aliases.items())
    ]


def shell_alias_command(alias: Alias) -> Any:
    """The command a shell alias runs as: every word after it goes to the shell."""
    # Typer's own Click (it vendors one), as the rest of the command tree is.
    from typer._click.globals import get_current_context
    from typer.core import TyperCommand

    def run_shell() -> int:
        click_ctx = get_current_context()
        return _run_shell(click_ctx, alias, list(click_ctx.args))

    return TyperCommand(
        alias.name,
        callback=run_shell,
        context_settings={
            "ignore_unknown_options": True,
            "allow_extra_args": True,
            "allow_interspersed_args": False,
        },
        add_help_option=False,
        help=f"Shell alias for {alias.command!r}.",
    )


def shell_environment(root: Any, env: Mapping[str, str]) -> dict[str, str]:
    """The shell's environment: leadctl's credentials left out (config/child_env.py), the
    global options given before the alias set as the variables leadctl reads."""
    from typer._click.core import ParameterSource

    from leadctl.config.child_env import child_environment

    child = child_environment(env)
    for param in root.command.params:
        if root.get_parameter_source(param.name) is not ParameterSource.COMMANDLINE:
            continue
        variable = SHELL_ALIAS_VARIABLES.get(param.name)
        if variable is None:
            flag = max(param.opts, key=len)
            raise UsageError(
                f"{flag} cannot go to a shell alias: only "
                + ", ".join(f"--{name.replace('_', '-')}" for name in SHELL_ALIAS_VARIABLES)
                + " reach its commands (as environment variables)",
                hint="write the flag in the alias's own leadctl commands",
            )
        value = root.params[param.name]
        child[variable] = "1" if value is True else str(getattr(value, "value", value))
    return child


def _run_shell(click_ctx: Any, alias: Alias, args: list[str]) -> int:
    import shutil
    import subprocess

    root = click_ctx.find_root()
    env = getattr(root.obj, "env", None) or os.environ
    sh = shutil.which("sh") or "/bin/sh"
    # As `sh -c SCRIPT NAME ARGS...`: the alias's name is $0, its arguments $1, $2...
    done = subprocess.run(
        [sh, "-c", alias.command, alias.name, *args], env=shell_environment(root, env)
    )
    # A shell killed by a signal exits as shells report it: 128 + the signal.
    return done.returncode if done.returncode >= 0 else 128 - done.returncode
