"""The help cache (leadctl/cli/help_cache.py) through the installed command.

A help page seen before is answered before Typer is imported, byte for byte what a fresh run
writes; whatever the page depends on (the config, a stored contract, the profile, the width,
leadctl's own source) gives a fresh page at once.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from tests.support.e2e import (
    Completed,
    base_env,
    home_env,
    leadctl_executable,
    run_leadctl,
    run_leadctl_tty,
)

pytestmark = pytest.mark.e2e

TRAITS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts" / "traits-3.1.json"
PACKAGE = Path(__file__).resolve().parents[2] / "leadctl"
UNCACHED = {"LEADCTL_HELP_CACHE": "0"}


def leadctl(env: Mapping[str, str], *argv: str) -> str:
    result = run_leadctl(list(argv), env=env)
    assert result.exit_code == 0, result.stderr[-2000:]
    return result.stdout


def answered(env: Mapping[str, str], argv: Sequence[str]) -> tuple[Completed, bool]:
    """A run's result and whether it imported Typer (False: the cache answered)."""
    result = run_leadctl(list(argv), env={**env, "PYTHONPROFILEIMPORTTIME": "1"})
    lines = result.stderr.splitlines()
    imports = [line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")]
    others = [line for line in lines if not line.startswith("import time:")]
    assert others == [], others  # nothing but the import list on stderr
    return result, any(name == "typer" or name.startswith("typer.") for name in imports)


def cached_files(home: Path) -> list[Path]:
    return sorted((home / "cache" / "help").glob("*.txt"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """Two profiles: ops (a stored contract, the traits fixture) and plain (none, current)."""
    env = home_env(tmp_path)
    leadctl(env, "-q", "-p", "ops", "profile", "set", "base_url", "https://ops.example.test")
    leadctl(env, "-q", "-p", "plain", "profile", "set", "base_url", "https://plain.test")
    leadctl(env, "-q", "profile", "use", "plain")
    leadctl(env, "-q", "-p", "ops", "contract", "import", str(TRAITS))
    return tmp_path


HELP_LINES = [
    ["--help"],  # the root
    ["leads", "--help"],  # a group
    ["-p", "ops", "leads", "list", "--help"],  # a curated verb, the contract's flags
    ["-p", "ops", "tags", "list", "-h"],  # a generated verb of the stored contract
    ["--profile=ops", "tags", "--help"],  # a generated group
]


@pytest.mark.parametrize("argv", HELP_LINES, ids=" ".join)
def test_a_second_run_is_answered_from_the_cache_as_a_fresh_run_writes_it(
    home: Path, argv: list[str]
) -> None:
    env = home_env(home)
    first, first_typer = answered(env, argv)
    second, second_typer = answered(env, argv)
    fresh, _ = answered({**env, **UNCACHED}, argv)
    assert first_typer and not second_typer
    assert (first.exit_code, second.exit_code, fresh.exit_code) == (0, 0, 0)
    assert first.stdout.startswith("Usage: leadctl")
    assert second.stdout == first.stdout == fresh.stdout


def test_the_cache_is_private_and_holds_no_secret(home: Path) -> None:
    env = {**home_env(home), "LEADCTL_TOKEN": "sk_test_0123456789abcdef"}
    leadctl(env, "-p", "ops", "leads", "--help")
    # a base URL with credentials in it: answered, never stored
    leadctl(env, "--base-url", "https://user:hunter22@ops.example.test", "--help")
    leadctl({**env, "LEADCTL_BASE_URL": "https://user:hunter22@ops.example.test"}, "--help")
    (found,) = cached_files(home)
    assert stat.S_IMODE(found.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(found.stat().st_mode) == 0o600
    assert b"sk_test_0123456789abcdef" not in found.read_bytes()
    assert b"LEADCTL_TOKEN is set" in found.read_bytes()  # another page without one
    assert [p.name for p in found.parent.iterdir() if not p.name.endswith(".txt")] == []


DAMAGE = [b"", b"leadctl help cache 2\n99999\n5\nshort", b"\xff\x00" * 64]


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_cache_file_is_no_cache(home: Path, damage: bytes) -> None:
    env = home_env(home)
    first = leadctl(env, "leads", "--help")
    (found,) = cached_files(home)
    found.write_bytes(damage)
    again, used_typer = answered(env, ["leads", "--help"])
    assert again.exit_code == 0 and used_typer
    assert again.stdout == first
    # and the page is stored again
    assert not answered(env, ["leads", "--help"])[1]


def test_another_key_in_the_file_is_no_answer(home: Path) -> None:
    """A file named for one key holding another line's page (a checksum clash)."""
    env = home_env(home)
    leadctl(env, "leads", "--help")
    root_page = leadctl(env, "--help")
    leads_file, root_file = sorted(cached_files(home), key=lambda p: p.stat().st_mtime_ns)
    leads_file.write_bytes(root_file.read_bytes())
    again, used_typer = answered(env, ["leads", "--help"])
    assert used_typer and again.stdout != root_page and "Usage: leadctl leads" in again.stdout


def lists(page: str, group: str) -> bool:
    return f"\n  {group} " in page


def test_the_current_profile_changed_in_the_config_shows_at_once(home: Path) -> None:
    env = home_env(home)
    assert not lists(leadctl(env, "--help"), "tags")
    leadctl(env, "-q", "profile", "use", "ops")
    assert lists(leadctl(env, "--help"), "tags")


def test_an_alias_added_shows_at_once(home: Path) -> None:
    env = home_env(home)
    assert "Aliases" not in leadctl(env, "--help")
    leadctl(env, "-q", "alias", "set", "mine", "leads list --mine")
    shown = leadctl(env, "--help")
    assert "Aliases" in shown and "mine" in shown
    assert shown == leadctl({**env, **UNCACHED}, "--help")


def test_a_contract_imported_for_the_active_profile_shows_at_once(tmp_path: Path) -> None:
    env = home_env(tmp_path)
    leadctl(env, "-q", "-p", "ops", "profile", "set", "base_url", "https://ops.example.test")
    leadctl(env, "-q", "profile", "use", "ops")
    assert not lists(leadctl(env, "--help"), "tags")
    assert not lists(leadctl(env, "--help"), "tags")  # answered from the cache
    leadctl(env, "-q", "contract", "import", str(TRAITS))
    assert lists(leadctl(env, "--help"), "tags")


@pytest.mark.parametrize("variable", ["LEADCTL_PROFILE", "--profile"])
def test_another_profile_is_another_page(home: Path, variable: str) -> None:
    env = home_env(home)

    def root_help(profile: str) -> str:
        if variable == "--profile":
            return leadctl(env, "--profile", profile, "--help")
        return leadctl({**env, variable: profile}, "--help")

    assert not lists(root_help("plain"), "tags")
    assert lists(root_help("ops"), "tags")
    assert not lists(root_help("plain"), "tags")


def test_the_width_is_part_of_the_key(home: Path) -> None:
    env = home_env(home)
    narrow = leadctl({**env, "COLUMNS": "60"}, "leads", "list", "--help")
    wide = leadctl({**env, "COLUMNS": "140"}, "leads", "list", "--help")
    assert max(map(len, narrow.splitlines())) <= 60 < max(map(len, wide.splitlines()))
    assert narrow == leadctl({**env, "COLUMNS": "60"}, "leads", "list", "--help")
    assert wide == leadctl({**env, "COLUMNS": "140", **UNCACHED}, "leads", "list", "--help")


def test_debug_is_never_answered_from_the_cache(home: Path) -> None:
    env = home_env(home)
    debug = {**env, "LEADCTL_DEBUG": "1"}
    for _ in range(2):
        assert answered(debug, ["leads", "--help"])[1]
    assert cached_files(home) == []


def test_a_shell_alias_given_help_runs_and_is_not_stored(home: Path) -> None:
    env = home_env(home)
    leadctl(env, "-q", "alias", "set", "--shell", "hello", "echo hello from the shell")
    for _ in range(2):
        assert leadctl(env, "hello", "--help").startswith("hello from the shell")
    assert cached_files(home) == []


def test_an_edited_source_file_shows_at_once(tmp_path: Path) -> None:
    """A developer's edit: a copy of the package run from source, a group's summary
    changed in place between root helps (``python -c`` as benchmarks/help_paths.py runs a
    checkout)."""
    source = tmp_path / "src"
    shutil.copytree(PACKAGE, source / "leadctl", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**base_env(home_env(tmp_path)), "PYTHONPATH": str(source)}

    def root_help() -> str:
        launch = "import sys; from leadctl.__main__ import main; sys.exit(main())"
        result = subprocess.run(
            [sys.executable, "-c", launch, "--help"],
            env=env,
            cwd=source,
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout

    where = subprocess.run(
        [sys.executable, "-c", "import leadctl; print(leadctl.__file__)"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(where.strip()).is_relative_to(source)
    groups = source / "leadctl" / "cli" / "groups.py"
    before = root_help()
    assert before == root_help()  # the second from the cache
    text = groups.read_text(encoding="utf-8")
    summary = "Inspect automation runs."
    assert summary in text and summary in before
    groups.write_text(text.replace(summary, "Inspect automation RUNS."), "utf-8")
    assert "Inspect automation RUNS." in root_help()  # the same size, a new time
    stamp = groups.stat()
    groups.write_text(text.replace(summary, "Inspect automation runs, edited."), "utf-8")
    os.utime(groups, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert "Inspect automation runs, edited." in root_help()  # the same time, another size


def test_a_reader_gone_gets_what_an_uncached_run_does(home: Path) -> None:
    """stdout a pipe whose reader has left (`leadctl --help | true`): the same exit code and
    the same (no) message as a run without the cache, not a traceback."""
    env = home_env(home)
    leadctl(env, "--help")

    def into_a_closed_pipe(extra: Mapping[str, str]) -> tuple[int, bytes]:
        read, write = os.pipe()
        os.close(read)  # before the run starts: its first write fails
        try:
            result = subprocess.run(
                [leadctl_executable(), "--help"],
                stdout=write,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                env=base_env({**env, **extra}),
                timeout=60,
                check=False,
            )
        finally:
            os.close(write)
        return result.returncode, result.stderr

    assert into_a_closed_pipe({}) == into_a_closed_pipe(UNCACHED)


def test_on_a_terminal_the_page_is_the_terminal_one(home: Path) -> None:
    """stdout a terminal: its own entry (the key holds the tty flag), the page a fresh run
    draws there, answered without Typer the second time."""
    env = home_env(home)
    argv = ["-p", "ops", "leads", "list", "--help"]
    leadctl(env, *argv)  # the pipe's page, stored first

    def on_a_terminal(extra: Mapping[str, str]) -> tuple[str, bool]:
        result = run_leadctl_tty(argv, env={**env, "PYTHONPROFILEIMPORTTIME": "1", **extra})
        assert result.exit_code == 0, result.stderr[-2000:]
        lines = result.stderr.splitlines()
        names = [line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import")]
        return result.stdout, "typer" in names

    first, first_typer = on_a_terminal({})
    second, second_typer = on_a_terminal({})
    fresh, _ = on_a_terminal(UNCACHED)
    assert first_typer and not second_typer  # the pipe's entry did not answer the terminal
    assert first == second == fresh and first.startswith("Usage: leadctl leads list")
    assert len(cached_files(home)) == 2
