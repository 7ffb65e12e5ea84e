"""Where leadctl keeps its files: the config, data and cache dirs. Never created here.

``LEADCTL_CONFIG_DIR``, ``LEADCTL_DATA_DIR`` and ``LEADCTL_CACHE_DIR`` come first. Otherwise
the user's dirs are the ones platformdirs names. On Linux and macOS they are computed here, the
way platformdirs 4 computes them, because nearly every command reads the config or the
contract store on its way in, and importing platformdirs also imports tempfile and random:
about 3 ms of a 60 ms ``leadctl --help``. Wherever platformdirs decides more than a path
(Windows, Android, iOS, other systems, a relative HOME), platformdirs itself is asked.
``tests/unit/test_dirs.py`` compares both ways on every case computed here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

APP_NAME = "leadctl"
CONFIG_FILE = "config.toml"

Kind = Literal["config", "data", "cache"]

# kind: (its XDG variable, the Linux default, the macOS default)
_USER_DIRS: Mapping[Kind, tuple[str, str, str]] = {
    "config": ("XDG_CONFIG_HOME", "~/.config", "~/Library/Application Support"),
    "data": ("XDG_DATA_HOME", "~/.local/share", "~/Library/Application Support"),
    "cache": ("XDG_CACHE_HOME", "~/.cache", "~/Library/Caches"),
}


def config_dir(env: Mapping[str, str]) -> Path:
    """LEADCTL_CONFIG_DIR, else the user's config dir for leadctl."""
    return _dir("config", env)


def config_path(env: Mapping[str, str]) -> Path:
    """Where config.toml is (or would be)."""
    return config_dir(env) / CONFIG_FILE


# The word of config.toml's table of aliases (config/settings.py), looked for before a parse.
ALIASES_TABLE = b"aliases"


def config_mentions(env: Mapping[str, str], word: bytes) -> bool:
    """Whether config.toml's bytes hold ``word``: a look, not a parse, for start-up to
    skip the TOML parse (and the settings module) when the answer is no."""
    try:
        with open(config_path(env), "rb") as file:
            return word in file.read()
    except OSError:
        return False


def data_dir(env: Mapping[str, str]) -> Path:
    """LEADCTL_DATA_DIR, else the user's data dir for leadctl."""
    return _dir("data", env)


def cache_dir(env: Mapping[str, str]) -> Path:
    """LEADCTL_CACHE_DIR, else the user's cache dir for leadctl."""
    return _dir("cache", env)


def _dir(kind: Kind, env: Mapping[str, str]) -> Path:
    override = env.get(f"LEADCTL_{kind.upper()}_DIR", "")
    if override:
        return Path(override).expanduser()
    computed = user_dir(kind, env, sys.platform)
    if computed is not None:
        return Path(computed)
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))


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
