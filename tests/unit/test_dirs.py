"""leadctl's config, data and cache dirs: the LEADCTL_* overrides, and the user's dirs
computed as platformdirs computes them, compared with platformdirs itself on every case."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import get_args

import platformdirs
import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix

from leadctl.config.dirs import Kind, cache_dir, config_dir, data_dir, user_dir

KINDS: tuple[Kind, ...] = get_args(Kind)
XDG = {"config": "XDG_CONFIG_HOME", "data": "XDG_DATA_HOME", "cache": "XDG_CACHE_HOME"}
PLATFORMS = {"linux": Unix, "darwin": MacOS}
FOUND_BY = {"config": config_dir, "data": data_dir, "cache": cache_dir}


def platformdirs_own(kind: Kind) -> Path:
    return Path(getattr(platformdirs, f"user_{kind}_dir")("leadctl", appauthor=False))


def test_the_overrides_come_first_and_expand_the_home(tmp_path: Path) -> None:
    env = {
        "LEADCTL_CONFIG_DIR": str(tmp_path / "c"),
        "LEADCTL_DATA_DIR": "~/leadctl-data",
        "LEADCTL_CACHE_DIR": str(tmp_path / "k"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
    }
    assert config_dir(env) == tmp_path / "c"
    assert data_dir(env) == Path("~/leadctl-data").expanduser()
    assert cache_dir(env) == tmp_path / "k"


@pytest.mark.parametrize("platform", sorted(PLATFORMS))
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "xdg",
    [None, "/srv/xdg-test", "", "   ", "relative/xdg", "~/xdg"],
    ids=["unset", "absolute", "empty", "blank", "relative", "tilde"],
)
def test_the_user_dirs_are_the_ones_platformdirs_names(
    monkeypatch: pytest.MonkeyPatch, platform: str, kind: Kind, xdg: str | None
) -> None:
    monkeypatch.setenv("HOME", "/home/operator")
    monkeypatch.delenv("ANDROID_DATA", raising=False)
    if xdg is None:
        monkeypatch.delenv(XDG[kind], raising=False)
    else:
        monkeypatch.setenv(XDG[kind], xdg)
    named = getattr(PLATFORMS[platform](appname="leadctl", appauthor=False), f"user_{kind}_dir")
    assert user_dir(kind, os.environ, platform) == named


@pytest.mark.skipif(sys.platform not in PLATFORMS, reason="computed here on Linux and macOS")
@pytest.mark.parametrize("kind", KINDS)
def test_without_overrides_each_dir_is_platformdirs_own(
    monkeypatch: pytest.MonkeyPatch, kind: Kind
) -> None:
    monkeypatch.delenv(f"LEADCTL_{kind.upper()}_DIR")
    found = FOUND_BY[kind](os.environ)
    assert found == platformdirs_own(kind)
    assert not found.exists() or found.is_dir()  # looked up, never created here


@pytest.mark.parametrize("kind", KINDS)
def test_platformdirs_is_asked_where_it_decides_more_than_a_path(
    monkeypatch: pytest.MonkeyPatch, kind: Kind
) -> None:
    monkeypatch.setenv("HOME", "/home/operator")
    for platform in ("win32", "ios", "android", "freebsd14", "emscripten"):
        assert user_dir(kind, os.environ, platform) is None, platform
    assert user_dir(kind, {"ANDROID_DATA": "/data"}, "linux") is None
    # A relative HOME: platformdirs looks the home up in the password database instead.
    monkeypatch.setenv("HOME", "relative-home")
    assert user_dir(kind, os.environ, "linux") is None
    monkeypatch.delenv(f"LEADCTL_{kind.upper()}_DIR")
    assert FOUND_BY[kind](os.environ) == platformdirs_own(kind)
