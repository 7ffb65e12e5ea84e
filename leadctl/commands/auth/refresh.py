"""``leadctl auth refresh``: refresh the profile's OAuth access token now."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.auth._shared import timestamp
from leadctl.config.credentials import stored_credential
from leadctl.errors import UsageError
from leadctl.oauth.session import refresh as refresh_tokens

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = "Examples:\n\n  leadctl auth refresh\n\n  leadctl -p me auth refresh"


@dataclass(frozen=True)
class Options:
    """`auth refresh` takes only the global options."""


def run(opts: Options, ctx: Context) -> None:

    held = stored_credential(
        env=ctx.env, profile=ctx.settings.profile, profile_settings=ctx.settings.profile_values
    )
    if held is None or held.oauth is None:
        raise UsageError(
            f"profile {ctx.profile_name!r} holds no OAuth sign-in to refresh",
            hint="sign in with `leadctl auth login --device` or `--web`",
        )
    renewed = refresh_tokens(ctx.signed_in_profile(), held, force=True)
    when = timestamp(renewed.expires_at)
    ctx.ios.info(
        f"refreshed the access token of profile {ctx.profile_name}"
        + (f"; it expires at {when}" if when else "")
    )


HELP = """Refresh the profile's OAuth access token now (it is otherwise refreshed when it
    expires within 60 s, and once after a 401).

    Exit 3 when the authorization server refuses the refresh: log in again.
    """

command = verb_command(Options, run, help=HELP)
