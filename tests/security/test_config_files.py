"""The config and the credential file store on disk: private modes whatever the umask,
atomic replacement, and concurrent writers (real `leadctl profile set` processes) that
never lose each other's changes nor leave a half-written file for a reader to see.

The modes, the refusal and the writers are the installed leadctl's; the login a refusal test
starts from, the config a race starts from and reading the result back run in-process
(``run_in_process``: the same command tree and config directory).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.e2e import base_env, leadctl_executable, run_leadctl
from tests.support.in_process import run_in_process

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

pytestmark = pytest.mark.e2e

TOKEN = "sk_test_files_0123456789abcdefghij"
WRITERS = 12


def config_dir() -> Path:
    return Path(os.environ["LEADCTL_CONFIG_DIR"])


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def start(args: list[str], *, umask: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [leadctl_executable(), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=base_env(),
        text=True,
        umask=-1 if umask is None else umask,
    )


def test_files_are_private_even_with_umask_0() -> None:
    refused = run_leadctl(
        [
            "-p",
            "files",
            "auth",
            "login",
            "--base-url",
            "https://api.example.test",
            "--with-token",
            "--insecure-storage",
            "--no-verify",
        ]
    )
    # --with-token read nothing (stdin is /dev/null): refused, and nothing was written.
    assert refused.exit_code == 2, refused.stderr
    assert not config_dir().exists()

    proc = subprocess.run(
        [
            leadctl_executable(),
            "-p",
            "files",
            "auth",
            "login",
            "--base-url",
            "https://api.example.test",
            "--with-token",
            "--insecure-storage",
            "--no-verify",
        ],
        input=TOKEN,
        capture_output=True,
        text=True,
        env=base_env(),
        umask=0,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    directory = config_dir()
    assert mode(directory) == 0o700
    assert mode(directory / "config.toml") == 0o600
    assert mode(directory / "config.toml.lock") == 0o600
    assert mode(directory / "credentials") == 0o700
    stored = directory / "credentials" / "files"
    assert mode(stored) == 0o600
    assert (stored.read_text(encoding="utf-8").strip() == TOKEN) is True
    assert TOKEN not in (directory / "config.toml").read_text(encoding="utf-8")
    # Rewritten by rename: no temporary file is left behind.
    assert sorted(p.name for p in directory.iterdir()) == [
        "config.toml",
        "config.toml.lock",
        "credentials",
    ]


def test_a_group_readable_credential_file_is_refused_not_used() -> None:
    login = run_in_process(
        [
            "-p",
            "loose",
            "auth",
            "login",
            "--base-url",
            "https://api.example.test",
            "--with-token",
            "--insecure-storage",
            "--no-verify",
        ],
        stdin=TOKEN,
    )
    assert login.exit_code == 0, login.stderr
    stored = config_dir() / "credentials" / "loose"
    stored.chmod(0o640)
    result = run_in_process(["-p", "loose", "--dry-run", "lead-statuses", "list"])
    status = run_leadctl(["-p", "loose", "auth", "status"])
    assert status.exit_code == 3, status.stderr
    assert "chmod 600" in status.stderr
    assert TOKEN not in status.stdout + status.stderr + result.stdout + result.stderr


def test_concurrent_writers_lose_nothing_and_readers_never_see_half_a_file() -> None:
    seed = run_in_process(["-p", "shared", "profile", "set", "output", "json"])
    assert seed.exit_code == 0, seed.stderr
    config = config_dir() / "config.toml"
    problems: list[str] = []
    reads = 0
    stop = threading.Event()

    def read_continuously() -> None:
        nonlocal reads
        while not stop.is_set():
            try:
                data = config.read_bytes()
            except FileNotFoundError:
                problems.append("the config vanished during a write")
                continue
            try:
                parsed = tomllib.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
                problems.append(f"a reader saw a broken config: {error}")
                continue
            if "shared" not in parsed.get("profiles", {}):
                problems.append("a reader saw a config without an earlier profile")
            reads += 1

    reader = threading.Thread(target=read_continuously)
    reader.start()
    try:
        procs = [
            start(["-p", f"writer-{n}", "profile", "set", "timeout", str(n + 1)])
            for n in range(WRITERS)
        ]
        procs += [
            start(["-p", "shared", "profile", "set", "region", region])
            for region in ("US", "GB", "DE", "FR")
        ]
        results = [(proc.wait(timeout=120), proc.stderr) for proc in procs]
    finally:
        time.sleep(0.05)
        stop.set()
        reader.join()
    for code, stderr in results:
        assert code == 0, stderr.read() if stderr else ""
    assert problems == []
    assert reads > 0
    final = tomllib.loads(config.read_text(encoding="utf-8"))
    profiles = final["profiles"]
    # Every writer's change is there: none was overwritten by a concurrent rewrite.
    assert {name: profiles[name]["timeout"] for name in profiles if name.startswith("writer-")} == {
        f"writer-{n}": n + 1 for n in range(WRITERS)
    }
    assert profiles["shared"]["output"] == "json"
    assert profiles["shared"]["region"] in ("US", "GB", "DE", "FR")
    assert mode(config) == 0o600
    leftovers = [p.name for p in config_dir().iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
    # The file as a whole still reads back through leadctl.
    listed = run_in_process(["profile", "list", "-o", "json"])
    assert listed.exit_code == 0, listed.stderr
