"""What several ``leadctl profile`` verbs share: finding a profile, its row, help text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from leadctl.config.service_target import SANDBOX_PROFILE
from leadctl.config.settings import PROFILE_KEYS, Config
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

KEYS_HELP = "Keys:\n\n" + "\n\n".join(
    f"  {key}: {description}" for key, description in PROFILE_KEYS.items()
)


def examples(*lines: str) -> str:
    return "Examples:\n\n" + "\n\n".join(f"  {line}" for line in lines)


def complete_key(incomplete: str) -> list[str]:
    return [key for key in PROFILE_KEYS if key.startswith(incomplete)]


def unknown_profile(name: str, config: Config) -> UsageError:
    known = ", ".join(sorted(config.profiles)) or "none yet"
    return UsageError(
        f"unknown profile {name!r} (configured: {known})",
        hint="create one with `leadctl auth login --profile NAME` or "
        "`leadctl --profile NAME profile set KEY VALUE`",
    )


def profile_values(name: str, config: Config) -> dict[str, Any]:
    """A configured profile's settings; the built-in sandbox profile has none."""
    values = config.profiles.get(name)
    if values is None:
        if name == SANDBOX_PROFILE:
            return {}
        raise unknown_profile(name, config)
    return values


def row(ctx: Context, name: str, values: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "current": name == ctx.profile_name, **values}
