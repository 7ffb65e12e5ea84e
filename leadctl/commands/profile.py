"""``leadctl profile``: list, switch, inspect, edit and delete profiles.

Profiles hold settings only; the credential lives in the keyring or the file store, so
only ``delete`` (which removes it) ever reaches a credential store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.config import (
    INTERNAL_KEYS,
    PROFILE_KEYS,
    Config,
    parse_profile_value,
    update_config,
    validate_profile_name,
)
from leadctl.context import SANDBOX_PROFILE
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.output import Column

app = typer.Typer(help="List, switch and edit profiles.", no_args_is_help=True)

_KEYS_HELP = "Keys:\n\n" + "\n\n".join(
    f"  {key}: {description}" for key, description in PROFILE_KEYS.items()
)


def _examples(*lines: str) -> str:
    return "Examples:\n\n" + "\n\n".join(f"  {line}" for line in lines)


def _complete_key(incomplete: str) -> list[str]:
    return [key for key in PROFILE_KEYS if key.startswith(incomplete)]


def _unknown_profile(name: str, config: Config) -> UsageError:
    known = ", ".join(sorted(config.profiles)) or "none yet"
    return UsageError(
        f"unknown profile {name!r} (configured: {known})",
        hint="create one with `leadctl auth login --profile NAME` or "
        "`leadctl --profile NAME profile set KEY VALUE`",
    )


def _profile_values(name: str, config: Config) -> dict[str, Any]:
    """A configured profile's settings; the built-in sandbox profile has none."""
    values = config.profiles.get(name)
    if values is None:
        if name == SANDBOX_PROFILE:
            return {}
        raise _unknown_profile(name, config)
    return values


def _row(ctx: Context, name: str, values: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "current": name == ctx.profile_name, **values}


def _list_columns() -> list[Column]:
    from leadctl.output import Column

    return [
        Column("name"),
        Column("current", kind="bool"),
        Column("base_url", "base URL"),
        Column("output"),
        Column("region"),
        Column("credential_store", "store"),
        Column("credential_kind", "kind"),
    ]


def _show_columns() -> list[Column]:
    from leadctl.output import Column

    keys = [*PROFILE_KEYS, *INTERNAL_KEYS]
    return [
        Column("name"),
        Column("current", kind="bool"),
        *(Column(key, kind="number" if key == "timeout" else "text") for key in keys),
    ]


@app.command(
    "list",
    epilog=_examples("leadctl profile list", "leadctl profile list -o value --columns name"),
)
def list_(typer_ctx: typer.Context) -> None:
    """List the configured profiles; the one in effect is marked current."""
    from leadctl.output import emit_list

    ctx = get_context(typer_ctx)
    config = ctx.config
    rows = [_row(ctx, name, values) for name, values in sorted(config.profiles.items())]
    emit_list(ctx, rows, columns=_list_columns())
    if not rows:
        ctx.ios.info("no profiles yet: create one with `leadctl auth login`")


@app.command(epilog=_examples("leadctl profile use prod", "leadctl profile use sandbox"))
def use(
    typer_ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Profile to make current.")],
) -> None:
    """Make NAME the current profile (used when no --profile is given)."""
    ctx = get_context(typer_ctx)
    validate_profile_name(name)

    def switch(config: Config) -> None:
        _profile_values(name, config)
        config.current_profile = name

    update_config(ctx.env, switch)
    ctx.ios.info(f"current profile: {name}")
    if ctx.env.get("LEADCTL_PROFILE"):
        ctx.ios.warn(f"LEADCTL_PROFILE={ctx.env['LEADCTL_PROFILE']} still overrides it here")


@app.command(epilog=_examples("leadctl profile show", "leadctl profile show prod -o json"))
def show(
    typer_ctx: typer.Context,
    name: Annotated[
        str | None, typer.Argument(help="Profile to show (default: the one in effect).")
    ] = None,
) -> None:
    """Show one profile's settings. Credentials are never part of a profile."""
    from leadctl.output import emit_object

    ctx = get_context(typer_ctx)
    chosen = validate_profile_name(name if name is not None else ctx.profile_name)
    values = _profile_values(chosen, ctx.config)
    emit_object(ctx, _row(ctx, chosen, values), columns=_show_columns())


@app.command(
    "set",
    epilog=_KEYS_HELP
    + "\n\n"
    + _examples(
        "leadctl -p prod profile set base_url https://api.example.com",
        "leadctl profile set region GB",
    ),
)
def set_(
    typer_ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="Setting to change.", autocompletion=_complete_key)],
    value: Annotated[str, typer.Argument(help="New value.")],
) -> None:
    """Set KEY to VALUE on the profile in effect (-p), creating the profile if needed."""
    ctx = get_context(typer_ctx)
    profile = validate_profile_name(ctx.profile_name)
    parsed = parse_profile_value(key, value)
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


@app.command(
    epilog=_KEYS_HELP
    + "\n\n"
    + _examples("leadctl profile unset region", "leadctl -p prod profile unset timeout"),
)
def unset(
    typer_ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="Setting to remove.", autocompletion=_complete_key)],
) -> None:
    """Remove KEY from the profile in effect (-p), back to its default."""
    ctx = get_context(typer_ctx)
    profile = validate_profile_name(ctx.profile_name)
    if key in INTERNAL_KEYS:
        raise UsageError(f"{key} is managed by `leadctl auth login` / `leadctl auth logout`")
    if key not in PROFILE_KEYS:
        raise UsageError(f"unknown profile key {key!r}", hint="keys: " + ", ".join(PROFILE_KEYS))

    def remove(config: Config) -> bool:
        values = config.profiles.get(profile)
        if values is None:
            raise _unknown_profile(profile, config)
        return values.pop(key, None) is not None

    if update_config(ctx.env, remove):
        ctx.ios.info(f"profile {profile}: {key} removed")
    else:
        ctx.ios.info(f"profile {profile}: {key} was not set")


@app.command(epilog=_examples("leadctl profile delete staging", "leadctl profile delete old --yes"))
def delete(
    typer_ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Profile to delete.")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete profile NAME and remove its credential from the keyring or file store."""
    from leadctl.credentials import delete_credential

    ctx = get_context(typer_ctx)
    validate_profile_name(name)
    values = ctx.config.profiles.get(name)
    if values is None:
        raise _unknown_profile(name, ctx.config)
    stored = " and its stored credential" if values.get("credential_store") else ""
    ctx.ios.confirm(f"Delete profile {name}{stored}?", assume_yes=yes)
    # A profile that never stored a credential does not touch the keyring at all; one that
    # did keeps existing until that credential can really be removed.
    removed = delete_credential(env=ctx.env, profile=name, profile_settings=values)

    def drop(config: Config) -> None:
        config.profiles.pop(name, None)
        if config.current_profile == name:
            config.current_profile = None

    update_config(ctx.env, drop)
    ctx.ios.info(f"deleted profile {name}" + (" and its credential" if removed else ""))
