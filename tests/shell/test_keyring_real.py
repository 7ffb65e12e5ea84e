"""The real OS keyring: gnome-keyring's Secret Service on a private D-Bus session.

`dbus-run-session` starts a session bus for one bash script; `gnome-keyring-daemon
--unlock` (password on stdin) starts the secrets component with an unlocked login
keyring; leadctl then logs in, uses the stored key, saves a rotated source key for
another profile and logs out, each step checked against the keyring with secret-tool.
No credential is ever on a command line: the key goes to `auth login` on stdin.

Without D-Bus at all, the same commands end with the documented error (exit 3, naming
LEADCTL_TOKEN and --insecure-storage) well before any hang could matter.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.shell.conftest import require
from tests.support.e2e import leadctl_executable
from tests.support.sandbox_server import SandboxProcess

SECRET_SERVICE = "keyring.backends.SecretService.Keyring"

SESSION_SCRIPT = r"""
set -u
step() {
    local name=$1
    shift
    "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    echo "$name $?" >>"$OUT/steps"
}
lookup() {
    secret-tool lookup service leadctl username "$2" >"$OUT/$1.out" 2>/dev/null
    echo "$1 $?" >>"$OUT/steps"
}
eval "$(gnome-keyring-daemon --unlock --components=secrets <"$KEYRING_PASSWORD_FILE")"
export GNOME_KEYRING_CONTROL
step login "$LEADCTL" auth login --base-url "$BASE_URL" --with-token <"$TOKEN_FILE"
lookup keyring_default default
step status "$LEADCTL" auth status -o json
step read "$LEADCTL" lead-statuses list -o json
if [ "$ROTATE" = 1 ]; then
    step rotate "$LEADCTL" sources rotate "$SOURCE_ID" --yes --save-profile intake -o json
    lookup keyring_intake intake
    step intake_status "$LEADCTL" -p intake auth status -o json
    step intake_logout "$LEADCTL" -p intake auth logout
fi
step logout "$LEADCTL" auth logout
lookup keyring_after_logout default
step status_after_logout "$LEADCTL" auth status
"""


def rotate_has_save_profile() -> bool:
    from leadctl.docgen.tree import load_tree

    rotate = next((c for c in load_tree().walk() if c.path == ("sources", "rotate")), None)
    return rotate is not None and any("--save-profile" in o.names for o in rotate.options)


def private_dir(path: Path) -> Path:
    path.mkdir(mode=0o700, parents=True)
    return path


def base_env(home: Path) -> dict[str, str]:
    """Only what the programs need; in particular no D-Bus address and no keyring choice."""
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "LEADCTL_CONFIG_DIR": str(home / "config"),
        "LEADCTL_DATA_DIR": str(home / "data"),
        "XDG_RUNTIME_DIR": str(private_dir(home / "run")),
        "XDG_DATA_HOME": str(home / "share"),
    }
    return env


def steps(out: Path) -> dict[str, int]:
    lines = (out / "steps").read_text().splitlines()
    return {name: int(code) for name, code in (line.split() for line in lines)}


def test_login_use_rotate_logout_with_gnome_keyring(
    sandbox: SandboxProcess, tmp_path: Path
) -> None:
    require("dbus-run-session", "gnome-keyring-daemon", "secret-tool")
    home = private_dir(tmp_path / "user")
    out = private_dir(tmp_path / "out")
    token_file = home / "token"
    token_file.write_text(sandbox.credentials.org + "\n")
    token_file.chmod(0o600)
    password_file = home / "keyring-password"
    password_file.write_text("test keyring password")
    rotate = rotate_has_save_profile()
    source_id = sorted(sandbox.credentials.sources)[-1]
    env = {
        **base_env(home),
        "PYTHON_KEYRING_BACKEND": SECRET_SERVICE,
        "LEADCTL": leadctl_executable(),
        "BASE_URL": sandbox.base_url,
        "TOKEN_FILE": str(token_file),
        "KEYRING_PASSWORD_FILE": str(password_file),
        "SOURCE_ID": source_id,
        "ROTATE": "1" if rotate else "0",
        "OUT": str(out),
    }
    started = time.monotonic()
    session = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", SESSION_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    elapsed = time.monotonic() - started
    assert (out / "steps").exists(), f"the D-Bus session ran nothing: {session.stderr}"
    codes = steps(out)

    def said(step: str) -> str:
        return (out / f"{step}.out").read_text() + (out / f"{step}.err").read_text()

    assert codes["login"] == 0, said("login")
    assert "OS keyring" in said("login")
    # The key is in the Secret Service itself, not in a file leadctl wrote.
    assert codes["keyring_default"] == 0
    stored_is_org_key = (out / "keyring_default.out").read_text() == sandbox.credentials.org
    assert stored_is_org_key, "the keyring holds something else than the key given on stdin"
    assert not (home / "config" / "credentials").exists()
    status = json.loads((out / "status.out").read_text())
    assert (status["kind"], status["profile"]) == ("org", "default")
    assert sandbox.credentials.org not in said("status")

    assert codes["read"] == 0, said("read")
    assert isinstance(json.loads((out / "read.out").read_text()), list)

    if rotate:
        # Only stderr: stdout holds the new key.
        assert codes["rotate"] == 0, (out / "rotate.err").read_text()
        new_key = json.loads((out / "rotate.out").read_text())["secret"]
        assert codes["keyring_intake"] == 0
        saved_is_new_key = (out / "keyring_intake.out").read_text() == new_key
        assert saved_is_new_key, "the keyring's intake entry is not the rotated key"
        intake = json.loads((out / "intake_status.out").read_text())
        assert (intake["kind"], intake["profile"]) == ("source", "intake")
        assert codes["intake_logout"] == 0

    assert codes["logout"] == 0, said("logout")
    assert codes["keyring_after_logout"] != 0, "the keyring entry survived auth logout"
    assert codes["status_after_logout"] == 3
    assert elapsed < 30, f"the D-Bus session took {elapsed:.1f} s"
    if not rotate:
        pytest.skip("`sources rotate --save-profile` is not there yet; the rest passed")


def run_without_dbus(
    args: list[str], env: dict[str, str], stdin: Path | None = None
) -> tuple[int, str, float]:
    """Runs leadctl; stdin comes from a file, so no traceback can show a key."""
    started = time.monotonic()
    with open(stdin or os.devnull, "rb") as source:
        result = subprocess.run(
            [leadctl_executable(), *args],
            env=env,
            stdin=source,
            capture_output=True,
            text=True,
            timeout=10,
        )
    return result.returncode, result.stderr, time.monotonic() - started


def assert_the_clear_error(code: int, stderr: str, elapsed: float) -> None:
    assert code == 3, stderr
    assert "keyring" in stderr
    assert "LEADCTL_TOKEN" in stderr
    assert "--insecure-storage" in stderr
    assert "Traceback" not in stderr
    assert elapsed < 5, f"took {elapsed:.1f} s"


def test_without_dbus_login_fails_clearly_and_fast(sandbox: SandboxProcess, tmp_path: Path) -> None:
    home = private_dir(tmp_path / "user")
    env = base_env(home)
    assert "DBUS_SESSION_BUS_ADDRESS" not in env and "PYTHON_KEYRING_BACKEND" not in env
    token_file = home / "token"
    token_file.write_text(sandbox.credentials.org + "\n")
    code, stderr, elapsed = run_without_dbus(
        ["auth", "login", "--base-url", sandbox.base_url, "--with-token"], env, token_file
    )
    assert_the_clear_error(code, stderr, elapsed)
    assert sandbox.credentials.org not in stderr


def test_without_dbus_a_keyring_profile_fails_clearly_and_fast(
    sandbox: SandboxProcess, tmp_path: Path
) -> None:
    home = private_dir(tmp_path / "user")
    env = base_env(home)
    # What `auth login` leaves behind on a machine that had a keyring.
    config = private_dir(home / "config") / "config.toml"
    config.write_text(
        'current_profile = "default"\n\n[profiles.default]\n'
        f'base_url = "{sandbox.base_url}"\ncredential_store = "keyring"\n'
        'credential_kind = "org"\n'
    )
    code, stderr, elapsed = run_without_dbus(["lead-statuses", "list", "-o", "json"], env)
    assert_the_clear_error(code, stderr, elapsed)
