"""Where leadctl keeps its files: the config, data and cache dirs. Never created here.

``LEADCTL_CONFIG_DIR``, ``LEADCTL_DATA_DIR`` and ``LEADCTL_CACHE_DIR`` come first. Otherwise
the user's dirs are the ones platformdirs names. On Linux and macOS they are computed (in
``leadctl.config.dir_paths``) the way platformdirs 4 computes them, because nearly every
command reads the config or the contract store on its way in, and importing platformdirs
also imports tempfile and random: about 3 ms of a 60 ms ``leadctl --help``. Wherever
platformdirs decides more than a path (Windows, Android, iOS, other systems, a relative
HOME), platformdirs itself is asked. ``tests/unit/test_dirs.py`` compares both ways on
every case computed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from leadctl.config.dir_paths import APP_NAME, CONFIG_FILE, dir_path
from leadctl.config.dir_paths import user_dir as user_dir  # compared with platformdirs' in tests

Kind = Literal["config", "data", "cache"]


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
    found = dir_path(kind, env)
    if found is not None:
        return Path(found)
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))
