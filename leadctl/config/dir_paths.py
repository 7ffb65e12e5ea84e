"""The user's dirs for leadctl as plain strings, the way platformdirs 4 names them.

Kept apart from ``leadctl.config.dirs`` (which hands out ``Path`` objects) for the help
cache (``leadctl.cli.help_cache``), which answers ``--help`` before anything else is
imported: pathlib and typing cost it more than the whole cached answer. No import here but
``os`` and ``sys``.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself is what this module must not import
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Literal

    Kind = Literal["config", "data", "cache"]

APP_NAME = "leadctl"
CONFIG_FILE = "config.toml"

# kind: (its XDG variable, the Linux default, the macOS default)
_USER_DIRS: dict[str, tuple[str, str, str]] = {
    "config": ("XDG_CONFIG_HOME", "~/.config", "~/Library/Application Support"),
    "data": ("XDG_DATA_HOME", "~/.local/share", "~/Library/Application Support"),
    "cache": ("XDG_CACHE_HOME", "~/.cache", "~/Library/Caches"),
}


def dir_path(kind: Kind, env: Mapping[str, str]) -> str | None:
    """``LEADCTL_<KIND>_DIR``, else the user's ``kind`` dir for leadctl; None where only
    platformdirs can tell (``leadctl.config.dirs`` asks it then)."""
    override = env.get(f"LEADCTL_{kind.upper()}_DIR", "")
    if override:
        return os.path.expanduser(override)
    return user_dir(kind, env, sys.platform)


def user_dir(kind: Kind, env: Mapping[str, str], platform: str) -> str | None:
    """The user's ``kind`` dir for leadctl on ``platform`` as platformdirs 4 names it, or
    None where platformdirs has to be asked."""
    if platform not in ("linux", "darwin") or _maybe_android(env):
        return None
    home = os.environ.get("HOME")
    if home is not None and not os.path.isabs(home):
        return None  # platformdirs looks the home up in the password database then
    variable, linux_default, macos_default = _USER_DIRS[kind]
    # platformdirs takes an XDG variable only when it is an absolute path, on macOS too.
    xdg = env.get(variable, "")
    if os.path.isabs(xdg):
        return os.path.join(xdg, APP_NAME)
    default = linux_default if platform == "linux" else macos_default
    return os.path.join(os.path.expanduser(default), APP_NAME)


def _maybe_android(env: Mapping[str, str]) -> bool:
    return hasattr(sys, "getandroidapilevel") or "ANDROID_DATA" in env
