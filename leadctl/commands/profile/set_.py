"""``leadctl profile set``: set one setting of the profile in effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._common import get_context
from leadctl.commands.profile._shared import KEYS_HELP, complete_key, examples
from leadctl.config import Config, parse_profile_value, update_config, validate_profile_name
from leadctl.context import SANDBOX_PROFILE

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
    key: str
    # As typed: parsing it for its key is part of the verb.
    value: str


def run(opts: Options, ctx: Context) -> None:
    key = opts.key
    profile = validate_profile_name(ctx.profile_name)
    parsed = parse_profile_value(key, opts.value)
    if key == "base_url":
        from leadctl.urls import validate_base_url

        # Refused now rather than on every later command that would use it.
        validate_base_url(parsed, allow_insecure_http=ctx.options.allow_insecure_http)

    def assign(config: Config) -> bool:
        created = profile not in config.profiles
        config.profiles.setdefault(profile, {})[key] = parsed
        if config.current_profile is None:
            config.current_profile = profile
        return created

    created = update_config(ctx.env, assign)
    if key == "base_url" and profile == SANDBOX_PROFILE:
        ctx.ios.warn(
            "profile 'sandbox' now uses this base URL instead of the embedded sandbox; "
            "`leadctl -p sandbox profile unset base_url` restores it"
        )
    ctx.ios.info(f"{'created profile' if created else 'profile'} {profile}: {key} = {parsed}")


def set_(
    typer_ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="Setting to change.", autocompletion=complete_key)],
    value: Annotated[str, typer.Argument(help="New value.")],
) -> None:
    """Set KEY to VALUE on the profile in effect (-p), creating the profile if needed."""
    run(Options(key=key, value=value), get_context(typer_ctx))
