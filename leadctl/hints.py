"""Commands leadctl suggests carry the profile they are meant for.

A hint such as "run `leadctl auth login`" given under ``-p prod`` would log in another
profile when copied. Every ``leadctl`` command quoted in a hint gets ``-p NAME`` when the
profile in use is not the one leadctl picks without a flag (the current profile, else
``default``); commands that already name a profile keep theirs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from leadctl.errors import ApiError, LeadctlError

if TYPE_CHECKING:
    from leadctl.context import Context

DEFAULT_PROFILE = "default"
# A command quoted in backticks: `leadctl ...`.
_QUOTED_COMMAND = re.compile(r"`leadctl((?: [^`]*)?)`")
# Groups that act on no profile: a -p added to them would only confuse.
_PROFILELESS = (["sandbox"], ["completion"])
_NAMES_A_PROFILE = re.compile(r"(?:^|\s)(?:-p|--profile)(?:[\s=]|$)|(?:^|\s)-p\S")


def profile_flag(context: Context | None) -> str:
    """``-p NAME`` when commands for this invocation need it, else ""."""
    if context is None or context.options.profile is None:
        return ""
    name = context.options.profile
    try:
        implicit = context.config.current_profile or DEFAULT_PROFILE
    except LeadctlError:
        implicit = DEFAULT_PROFILE  # a broken config file: say it explicitly
    if name == implicit:
        return ""
    import shlex

    return f"-p {shlex.quote(name)}"


def command_line(context: Context | None, rest: str) -> str:
    """``leadctl [-p NAME] rest``: a command to show the user for this profile."""
    flag = profile_flag(context)
    return f"leadctl {flag} {rest}" if flag else f"leadctl {rest}"


def for_profile(context: Context | None, command: str) -> str:
    """``command`` (a ``leadctl ...`` line) with ``-p NAME`` when this invocation needs it."""
    return with_profile(f"`{command}`", profile_flag(context))[1:-1]


def with_profile(text: str, flag: str) -> str:
    """``text`` with ``flag`` added to each quoted leadctl command that names no profile."""
    if not flag:
        return text

    def add(match: re.Match[str]) -> str:
        rest = match.group(1)
        if _NAMES_A_PROFILE.search(rest) or rest.split()[:1] in _PROFILELESS:
            return match.group(0)
        return f"`leadctl {flag}{rest}`"

    return _QUOTED_COMMAND.sub(add, text)


def carry_profile(error: LeadctlError, context: Context | None) -> None:
    """Adds the profile to the commands ``error`` suggests (the service's words untouched)."""
    flag = profile_flag(context)
    if not flag:
        return
    if error.hint:
        error.hint = with_profile(error.hint, flag)
    if not isinstance(error, ApiError):
        error.message = with_profile(error.message, flag)
