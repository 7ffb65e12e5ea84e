"""Commands leadctl suggests carry the profile they are meant for.

A hint such as "run `leadctl auth login`" given under ``-p prod`` would log in another
profile when copied. Every ``leadctl`` command quoted in a hint gets ``-p NAME`` when the
profile was named with ``-p`` on the command line, or (from LEADCTL_PROFILE) is not the
one leadctl picks without a flag (the current profile, else ``default``); commands that
already name a profile keep theirs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

from leadctl.errors import ApiError, LeadctlError

if TYPE_CHECKING:
    from leadctl.config.settings import Config
    from leadctl.context import Context
    from leadctl.global_options import GlobalOptions
    from leadctl.iostreams import IOStreams


class NamedProfile(Protocol):
    """What the profile a hint carries is read from (the Context is one): -p as typed or
    LEADCTL_PROFILE, and the configured current profile."""

    @property
    def options(self) -> GlobalOptions: ...

    @property
    def config(self) -> Config: ...


DEFAULT_PROFILE = "default"
# After --dry-run on the embedded sandbox: the URL it printed is answered inside leadctl only.
EMBEDDED_DRY_RUN = (
    "the embedded sandbox answers inside leadctl only, so that URL answers nothing; "
    "to send the request yourself, start a sandbox that stays with `leadctl sandbox serve` "
    "and use the URL and key it prints"
)
# A command quoted in backticks: `leadctl ...`.
_QUOTED_COMMAND = re.compile(r"`leadctl((?: [^`]*)?)`")
# Groups that act on no profile: a -p added to them would only confuse.
_PROFILELESS = (["sandbox"], ["completion"])
_NAMES_A_PROFILE = re.compile(r"(?:^|\s)(?:-p|--profile)(?:[\s=]|$)|(?:^|\s)-p\S")


def profile_flag(context: NamedProfile | None) -> str:
    """``-p NAME`` when commands for this invocation need it, else ""."""
    if context is None or context.options.profile is None:
        return ""
    import shlex

    name = context.options.profile
    if not context.options.profile_from_env:
        # Typed on the command line: a command copied from the hint keeps it, whatever
        # the current profile is by then.
        return f"-p {shlex.quote(name)}"
    try:
        implicit = context.config.current_profile or DEFAULT_PROFILE
    except LeadctlError:
        implicit = DEFAULT_PROFILE  # a broken config file: say it explicitly
    if name == implicit:
        return ""
    return f"-p {shlex.quote(name)}"


def command_line(context: NamedProfile | None, rest: str) -> str:
    """``leadctl [-p NAME] rest``: a command to show the user for this profile."""
    flag = profile_flag(context)
    return f"leadctl {flag} {rest}" if flag else f"leadctl {rest}"


def for_profile(context: NamedProfile | None, command: str) -> str:
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


def fit_hint(error: LeadctlError, ios: IOStreams) -> None:
    """Breaks the hint at spaces to fit a terminal's stderr (see leadctl.util.wrap)."""
    if error.hint:
        error.hint = ios.fit_stderr(error.hint)


def carry_profile(
    error: LeadctlError, context: NamedProfile | None, *, typed_profile: str | None = None
) -> None:
    """Adds the profile to the commands ``error`` suggests (the service's words untouched);
    ``typed_profile`` is -p as typed, for errors raised before the context exists."""
    import shlex

    flag = profile_flag(context)
    if context is None and typed_profile:
        flag = f"-p {shlex.quote(typed_profile)}"
    if not flag:
        return
    if error.hint:
        error.hint = with_profile(error.hint, flag)
    if not isinstance(error, ApiError):
        error.message = with_profile(error.message, flag)


def pending_lead_note(context: Context, lead_id: str) -> str:
    """What to say after intake answered "Pending": how to check the lead later, with a
    command this profile's credential can run (a source key may only create leads)."""
    import shlex

    found = context.looked_up_credential()
    if found is not None and found.kind.value == "source":
        return (
            f"intake is processing lead {lead_id}; a source key cannot read leads back: "
            "check it from a profile with an organization key or user token"
        )
    check = command_line(context, f"leads list --filter id={shlex.quote(lead_id)}")
    return f"intake is processing the lead: check it with `{check}`"
