"""``leadctl profile set``: set one setting of the profile in effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import KEYS_HELP, complete_key, examples
from leadctl.config.profile_values import parse_profile_value
from leadctl.config.service_target import SANDBOX_PROFILE
from leadctl.config.settings import (
    Config,
    update_config,
    validate_profile_name,
)
from leadctl.config.urls import validate_base_url
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = (
    KEYS_HELP
    + "\n\n"
    + examples(
        "leadctl -p prod profile set base_url https://api.example.com",
        "leadctl profile set region GB",
    )
)


@dataclass(frozen=True)
class Options:
    key: Annotated[str, typer.Argument(help="Setting to change.", autocompletion=complete_key)]
    # As typed: parsing it for its key is part of the verb.
    value: Annotated[str, typer.Argument(help="New value.")]


def run(opts: Options, ctx: Context) -> None:
    key = opts.key
    profile = validate_profile_name(ctx.profile_name)
    parsed = parse_profile_value(key, opts.value)
    if key == "base_url" and profile == SANDBOX_PROFILE:
        raise UsageError(
            "the sandbox profile is always the embedded sandbox: it takes no base URL",
            hint="for another server (one started with `leadctl sandbox serve`, say), name "
            "another profile: `leadctl -p local profile set base_url URL`",
        )
    if key == "base_url":
        # Refused now rather than on every later command that would use it.
        validate_base_url(parsed, allow_insecure_http=ctx.options.allow_insecure_http)

    def assign(config: Config) -> bool:
        # The current profile stays as it is: `profile use` is what changes it.
        created = profile not in config.profiles
        config.profiles.setdefault(profile, {})[key] = parsed
        return created

    created = update_config(ctx.env, assign)
    ctx.ios.info(f"{'created profile' if created else 'profile'} {profile}: {key} = {parsed}")


HELP = """Set KEY to VALUE on the profile in effect (-p), creating the profile if needed.

    The current profile stays as it is: `leadctl profile use NAME` changes it.
    """

command = verb_command(Options, run, help=HELP)
