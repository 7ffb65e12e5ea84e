"""``leadctl auth logout``: remove the profile's stored credential."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.config.credentials import stored_credential
from leadctl.config.profiles import forget_profile_credential
from leadctl.errors import LeadctlError
from leadctl.oauth.session import revoke

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = "Examples:\n\n  leadctl auth logout\n\n  leadctl -p intake auth logout"


@dataclass(frozen=True)
class Options:
    """`auth logout` takes only the global options."""


def run(opts: Options, ctx: Context) -> None:

    profile = ctx.profile_name
    configured = ctx.config.profiles.get(profile)
    values = configured if configured is not None else {}
    try:
        held = stored_credential(env=ctx.env, profile=profile, profile_settings=values)
    except LeadctlError:
        held = None  # unreadable: deleting it is still what the user wants
    if held is not None and held.oauth is not None:
        ctx.ios.info(revoke(ctx.signed_in_profile(as_configured=True), held.oauth))
    removed = forget_profile_credential(ctx.env, profile=profile, values=configured)
    if removed:
        ctx.ios.info(f"logged out of profile {profile}")
    else:
        ctx.ios.info(f"profile {profile} had no stored credential")


HELP = """Remove the profile's stored credential (keyring or file).

    An OAuth sign-in's refresh token is first revoked at the authorization server where it
    offers revocation (RFC 7009); the tokens are deleted here either way.
    """

command = verb_command(Options, run, help=HELP)
