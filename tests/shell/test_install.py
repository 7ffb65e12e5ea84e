"""Installing leadctl the way users do: the wheel's contents, and `uv tool install .`.

pipx is not installed on the CI image, so only uv is exercised. Both steps run offline
from the local uv cache first; `uv tool install` falls back to the network once when the
cache lacks a dependency's metadata for this platform (a fresh CI machine after `uv sync`
has the wheels but not always that metadata), which is then cached for the next run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadctl import __version__
from leadctl.docgen.artifacts import COMPLETION_FILES
from tests.shell.conftest import REPO, require

DATA = f"leadctl-{__version__}.data/data/"
SHARED = {
    "completions/leadctl.bash": "share/bash-completion/completions/leadctl",
    "completions/_leadctl": "share/zsh/site-functions/_leadctl",
    "completions/leadctl.fish": "share/fish/vendor_completions.d/leadctl.fish",
}


def uv(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    require("uv")
    # A throwaway install needs no bytecode of its ~100 packages (UV_COMPILE_BYTECODE, where
    # set, made it 4x slower: 3 -> 13 s).
    quick = dict(os.environ if env is None else env)
    quick.pop("UV_COMPILE_BYTECODE", None)
    return subprocess.run(
        ["uv", *args], cwd=REPO, env=quick, capture_output=True, text=True, timeout=180
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("dist")
    built = uv("build", "--wheel", "--offline", "--out-dir", str(out))
    assert built.returncode == 0, built.stderr
    (found,) = out.glob("leadctl-*.whl")
    yield found


def test_wheel_holds_contract_completions_and_man_pages(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert "leadctl/contract/openapi.json" in names
        for source, target in SHARED.items():
            assert archive.read(DATA + target) == (REPO / source).read_bytes(), source
        pages = {path.name for path in (REPO / "man").glob("*.1")}
        assert pages and "leadctl.1" in pages
        for page in pages:
            assert (
                archive.read(f"{DATA}share/man/man1/{page}") == (REPO / "man" / page).read_bytes()
            )
    assert set(SHARED) == set(COMPLETION_FILES.values())


def test_uv_tool_install_gives_a_working_leadctl(tmp_path: Path) -> None:
    tools, bin_dir = tmp_path / "tools", tmp_path / "bin"
    env = {
        **os.environ,
        "UV_TOOL_DIR": str(tools),
        "UV_TOOL_BIN_DIR": str(bin_dir),
        "NO_COLOR": "1",
    }
    command = ["tool", "install", "--python", sys.executable, "."]
    installed = uv(*command[:2], "--offline", *command[2:], env=env)
    if installed.returncode != 0 and "network was disabled" in installed.stderr:
        installed = uv(*command, env=env)
    assert installed.returncode == 0, installed.stderr

    leadctl = bin_dir / "leadctl"
    version = subprocess.run(
        [str(leadctl), "--version"], capture_output=True, text=True, timeout=30, check=True
    )
    assert version.stdout == f"leadctl {__version__}\n"
    script = subprocess.run(
        [str(leadctl), "completion", "bash"], capture_output=True, text=True, timeout=30
    )
    assert script.stdout == (REPO / "completions" / "leadctl.bash").read_text()

    # The tool environment carries the man pages and completions where its share/ is.
    share = tools / "leadctl" / "share"
    assert (share / "bash-completion" / "completions" / "leadctl").is_file()
    page = share / "man" / "man1" / "leadctl.1"
    require("man")
    shown = subprocess.run(
        ["man", "-l", str(page)],
        env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "80"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert shown.returncode == 0 and "EXIT STATUS" in shown.stdout
