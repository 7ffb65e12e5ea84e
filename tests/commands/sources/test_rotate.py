"""``leadctl sources rotate`` in process.

``leadctl sources update`` and ``sources rotate``, in process against pytest-httpx stubs."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from keyring.backend import KeyringBackend
from pytest_httpx import HTTPXMock

from leadctl.config.settings import load_config
from tests.commands.sources._support import (
    NEW_KEY,
    OLD_SOURCE_KEY,
    ROTATE_URL,
    ROTATION,
    SOURCE,
    ClosedPipe,
    KeyringThatCannotStore,
    RecordingStdout,
    mode_of,
    recovery_files,
    run_with_stdout,
)
from tests.support.cli import BASE_URL, ORG_KEY, FakeClock, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile
from tests.support.run_context import direct_context, stdout_of


def test_rotate_piped_with_yes_posts_without_body_and_prints_the_json(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.method == "POST"
    assert request.url == ROTATE_URL
    assert request.content == b""
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    # The user asked for the key: -o json (the piped default) is the service's JSON unchanged.
    assert json.loads(result.stdout) == ROTATION
    assert NEW_KEY not in result.stderr
    assert recovery_files() == []


def test_rotate_without_a_terminal_needs_yes(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["sources", "rotate", "src_1"], env=token_env())
    assert result.exit_code == 2
    assert "confirmation needed" in result.stderr
    assert "--yes" in result.stderr
    assert httpx_mock.get_requests() == []


def test_rotate_with_no_input_needs_yes_even_on_a_terminal(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["--no-input", "sources", "rotate", "src_1"], env=token_env(), tty=True)
    assert result.exit_code == 2
    assert httpx_mock.get_requests() == []


def test_rotate_asks_on_a_terminal_and_proceeds_on_yes(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1"], env={**token_env(), "NO_COLOR": "1"}, tty=True, stdin="y\n"
    )
    assert result.exit_code == 0, result.stderr
    assert "Rotate the intake key of source src_1?" in result.stderr
    assert len(httpx_mock.get_requests()) == 1


@pytest.mark.parametrize("answer", ["n\n", "\n", ""])
def test_rotate_declined_is_exit_10_and_sends_nothing(httpx_mock: HTTPXMock, answer: str) -> None:
    result = run_cli(["sources", "rotate", "src_1"], env=token_env(), tty=True, stdin=answer)
    assert result.exit_code == 10
    assert httpx_mock.get_requests() == []


def test_rotate_declined_leaves_no_temporary_secret_file(
    httpx_mock: HTTPXMock, out_dir: Path
) -> None:
    result = run_cli(
        ["sources", "rotate", "src_1", "--secret-file", str(out_dir / "key")],
        env=token_env(),
        tty=True,
        stdin="n\n",
    )
    assert result.exit_code == 10
    assert httpx_mock.get_requests() == []
    assert list(out_dir.iterdir()) == []


def test_rotate_dry_run_does_not_prompt_and_sends_nothing(
    httpx_mock: HTTPXMock, out_dir: Path
) -> None:
    target = out_dir / "key.txt"
    result = run_cli(
        ["--dry-run", "sources", "rotate", "src_1", "--secret-file", str(target)],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl")
    assert "/sources/src_1/credentials/rotate" in result.stdout
    assert "confirmation" not in result.stderr
    assert httpx_mock.get_requests() == []
    # Nothing written either: not the file, not a temporary beside it.
    assert list(out_dir.iterdir()) == []


def test_rotate_with_a_source_key_is_exit_4_before_sending(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(memory_keyring, value=OLD_SOURCE_KEY, kind="source")
    result = run_cli(["sources", "rotate", "src_1", "--yes"])
    assert result.exit_code == 4
    assert httpx_mock.get_requests() == []


def test_rotate_is_not_retried_after_a_5xx(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, status_code=503)
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=token_env())
    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1
    assert "apiKeyRotatedAt" in result.stderr
    assert result.stdout == ""


def test_rotate_is_not_retried_after_a_timeout(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), method="POST", url=ROTATE_URL)
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=token_env())
    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1


def test_rotate_is_retried_on_429(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST", url=ROTATE_URL, status_code=429, headers={"Retry-After": "1"}
    )
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    clock = FakeClock()
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [1.0]
    assert json.loads(result.stdout)["secret"] == NEW_KEY


@pytest.mark.parametrize(("status", "exit_code"), [(401, 3), (403, 4), (404, 5)])
def test_rotate_error_statuses(httpx_mock: HTTPXMock, status: int, exit_code: int) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, status_code=status)
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=token_env())
    assert result.exit_code == exit_code
    assert result.stdout == ""


def test_secret_only_prints_the_key_and_a_newline(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(["sources", "rotate", "src_1", "--yes", "--secret-only"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert result.stdout == NEW_KEY + "\n"


def test_secret_only_wins_over_a_terminal_and_an_output_format(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--secret-only", "-o", "table"],
        env=token_env(),
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == NEW_KEY + "\n"


def test_terminal_view_shows_the_key_once_with_a_warning(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes"], env={**token_env(), "NO_COLOR": "1"}, tty=True
    )
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.count(NEW_KEY) == 1
    assert "store it now: it cannot be shown again" in out.lower()
    assert '"Web form" (src_1)' in out
    assert "src_…cdef" in out
    assert "2026-11-21 11:59 UTC" in out
    assert "\x1b[" not in out
    assert NEW_KEY not in result.stderr


def test_terminal_view_keeps_the_key_on_one_line_in_a_narrow_terminal(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes"],
        env={**token_env(), "NO_COLOR": "1", "COLUMNS": "20"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    assert any(line.strip() == NEW_KEY for line in result.stdout.splitlines())


def test_terminal_view_is_colored_only_when_color_is_on(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes"],
        env={**token_env(), "FORCE_COLOR": "1", "TERM": "xterm-256color"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    assert "\x1b[" in result.stdout
    assert NEW_KEY in result.stdout


def test_terminal_view_neutralises_control_characters_from_the_service(
    httpx_mock: HTTPXMock,
) -> None:
    hostile = {**ROTATION, "source": {**SOURCE, "name": "evil\x1b]0;pwned\x07name"}}
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=hostile)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes"], env={**token_env(), "NO_COLOR": "1"}, tty=True
    )
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "\x07" not in result.stdout


def test_value_output_with_columns_prints_the_key(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "-o", "value", "--columns", "source.id,secret"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"src_1\t{NEW_KEY}\n"


def test_an_answer_without_a_key_is_exit_8_and_its_body_is_kept(httpx_mock: HTTPXMock) -> None:
    raw = b"<html>rotated: src_only_copy_0123456789abcdef</html>"
    httpx_mock.add_response(
        method="POST", url=ROTATE_URL, content=raw, headers={"Content-Type": "text/html"}
    )
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=token_env())
    assert result.exit_code == 8
    assert result.stdout == ""
    assert "without a new key" in result.stderr
    assert "src_only_copy" not in result.stderr
    (kept,) = recovery_files()
    assert kept.read_bytes() == raw
    assert mode_of(kept) == 0o600
    assert str(kept) in result.stderr


def test_secret_file_is_0600_and_holds_the_key(httpx_mock: HTTPXMock, out_dir: Path) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    target = out_dir / "intake.key"
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", str(target)], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert target.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(target) == 0o600
    assert f"saved the new key to {target} (0600)" in result.stderr
    # No temporary file left beside it.
    assert [p.name for p in out_dir.iterdir()] == ["intake.key"]


def test_secret_file_replaces_an_existing_file_atomically(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    target = tmp_path / "intake.key"
    target.write_text("old key\n", encoding="utf-8")
    target.chmod(0o644)
    old_inode = target.stat().st_ino
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", str(target)], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert target.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(target) == 0o600
    # A new file renamed into place, not the old one rewritten (readers never see half).
    assert target.stat().st_ino != old_inode


def test_secret_file_is_written_before_anything_is_printed(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    target = tmp_path / "intake.key"
    stdout = RecordingStdout(target)
    code, stderr = run_with_stdout(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", str(target)], stdout, token_env()
    )
    assert code == 0, stderr
    assert stdout.written
    assert stdout.file_at_first_write == NEW_KEY + "\n"


def test_secret_file_through_a_symlink_is_refused_before_sending(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("not yours\n", encoding="utf-8")
    link = tmp_path / "intake.key"
    link.symlink_to(elsewhere)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", str(link)], env=token_env()
    )
    assert result.exit_code == 2
    assert "symbolic link" in result.stderr
    assert httpx_mock.get_requests() == []
    assert elsewhere.read_text(encoding="utf-8") == "not yours\n"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: str(d / "missing-dir" / "key"), "does not exist"),
        (lambda d: str(d), "is not a regular file"),
        (lambda d: "", "needs a file path"),
    ],
)
def test_bad_secret_file_paths_are_exit_2_before_sending(
    httpx_mock: HTTPXMock, tmp_path: Path, make: Any, message: str
) -> None:
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", make(tmp_path)], env=token_env()
    )
    assert result.exit_code == 2
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_an_unwritable_secret_file_directory_is_exit_2_before_sending(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    # root writes into a read-only directory; /proc refuses new files even to root.
    target = Path("/proc/leadctl-key") if os.geteuid() == 0 else locked / "key"
    if os.geteuid() == 0 and not Path("/proc/self").is_dir():
        pytest.skip("needs /proc when running as root")
    try:
        result = run_cli(
            ["sources", "rotate", "src_1", "--yes", "--secret-file", str(target)],
            env=token_env(),
        )
    finally:
        locked.chmod(0o700)
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_failed_request_leaves_no_temporary_file(httpx_mock: HTTPXMock, out_dir: Path) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, status_code=404)
    target = out_dir / "intake.key"
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", str(target)], env=token_env()
    )
    assert result.exit_code == 5
    assert list(out_dir.iterdir()) == []


def test_save_profile_stores_the_key_in_the_keyring_and_the_profile_works_for_intake(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert memory_keyring.store[("leadctl", "intake")] == NEW_KEY
    profile = load_config(os.environ).profiles["intake"]
    assert profile == {
        "base_url": BASE_URL,
        "credential_store": "keyring",
        "credential_kind": "source",
    }
    assert "saved the new key as profile intake's source key" in result.stderr
    assert recovery_files() == []

    # The intake scripts' profile now sends the new key to POST /leads.
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/leads", status_code=201, json={})
    intake = run_cli(["-p", "intake", "api", "POST", "/leads", "-f", "firstName=Ada"])
    assert intake.exit_code == 0, intake.stderr
    lead_request = httpx_mock.get_requests()[-1]
    assert lead_request.headers["Authorization"] == f"Bearer {NEW_KEY}"


def test_save_profile_updates_an_existing_source_profile_keeping_its_other_settings(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    memory_keyring.store[("leadctl", "intake")] = OLD_SOURCE_KEY
    config_dir = Path(os.environ["LEADCTL_CONFIG_DIR"])
    config_dir.mkdir(parents=True)
    (config_dir / "config.toml").write_text(
        '[profiles.intake]\nbase_url = "https://old.example.test"\nregion = "US"\n'
        'credential_store = "keyring"\ncredential_kind = "source"\n',
        encoding="utf-8",
    )
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert memory_keyring.store[("leadctl", "intake")] == NEW_KEY
    assert load_config(os.environ).profiles["intake"] == {
        "base_url": BASE_URL,
        "region": "US",
        "credential_store": "keyring",
        "credential_kind": "source",
    }


def test_save_profile_keeps_a_file_store_profile_in_its_file(httpx_mock: HTTPXMock) -> None:
    config_dir = Path(os.environ["LEADCTL_CONFIG_DIR"])
    config_dir.mkdir(parents=True)
    (config_dir / "config.toml").write_text(
        f'[profiles.intake]\nbase_url = "{BASE_URL}"\n'
        'credential_store = "file"\ncredential_kind = "source"\n',
        encoding="utf-8",
    )
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    stored = config_dir / "credentials" / "intake"
    assert stored.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(stored) == 0o600
    assert "stored unencrypted" in result.stderr
    assert load_config(os.environ).profiles["intake"]["credential_store"] == "file"


def test_save_profile_without_a_keyring_refuses_before_rotating(httpx_mock: HTTPXMock) -> None:
    # tests/conftest.py selects keyring's fail backend: no keyring on this "host".
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake"], env=token_env()
    )
    assert result.exit_code == 3
    assert "keyring is not usable" in result.stderr
    assert "--insecure-storage" in result.stderr
    assert httpx_mock.get_requests() == []  # nothing rotated
    assert recovery_files() == []


def test_save_profile_with_insecure_storage_works_without_a_keyring(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake", "--insecure-storage"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    stored = Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / "intake"
    assert stored.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(stored) == 0o600
    assert load_config(os.environ).profiles["intake"]["credential_store"] == "file"


def test_insecure_storage_without_save_profile_is_a_usage_error(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["sources", "rotate", "src_1", "--yes", "--insecure-storage"], env=token_env())
    assert result.exit_code == 2
    assert httpx_mock.get_requests() == []


def test_save_profile_failing_after_the_rotation_keeps_the_key_in_a_recovery_file(
    httpx_mock: HTTPXMock, use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    use_keyring(KeyringThatCannotStore())
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake"], env=token_env()
    )
    assert result.exit_code == 1
    (kept,) = recovery_files()
    assert kept.name == "src_1-20261121T120000Z.secret"
    assert kept.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(kept) == 0o600
    assert mode_of(kept.parent) == 0o700
    assert f"the new key was kept in {kept} (0600)" in result.stderr
    assert "could not save it for profile intake" in result.stderr
    assert "keyring" in result.stderr
    assert f"auth login --base-url {BASE_URL} --kind source --with-token < {kept}" in result.stderr
    assert NEW_KEY not in result.stderr
    # The key was still printed, and no half-made profile was left behind.
    assert json.loads(result.stdout)["secret"] == NEW_KEY
    assert "intake" not in load_config(os.environ).profiles


def test_when_no_recovery_file_can_be_made_the_printed_key_is_the_copy(
    httpx_mock: HTTPXMock,
    tmp_path: Path,
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    use_keyring(KeyringThatCannotStore())
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("", encoding="utf-8")
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", "intake"],
        env={**token_env(), "LEADCTL_DATA_DIR": str(blocker / "data")},
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout)["secret"] == NEW_KEY
    assert "could not keep the new key in a recovery file" in result.stderr
    assert "the new key is in the output above only" in result.stderr
    assert NEW_KEY not in result.stderr


def test_save_profile_failure_with_a_secret_file_needs_no_recovery_file(
    httpx_mock: HTTPXMock,
    tmp_path: Path,
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    use_keyring(KeyringThatCannotStore())
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    target = tmp_path / "intake.key"
    result = run_cli(
        [
            "sources",
            "rotate",
            "src_1",
            "--yes",
            "--secret-file",
            str(target),
            "--save-profile",
            "intake",
        ],
        env=token_env(),
    )
    assert result.exit_code == 1
    assert target.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert recovery_files() == []
    assert f"the new key is in {target}" in result.stderr
    assert f"--with-token < {target}" in result.stderr


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("work", "holds an org credential"),
        ("sandbox", "reserved for the embedded sandbox"),
        ("bad name!", "invalid profile name"),
    ],
)
def test_save_profile_refusals_happen_before_sending(
    httpx_mock: HTTPXMock, name: str, message: str
) -> None:
    config_dir = Path(os.environ["LEADCTL_CONFIG_DIR"])
    config_dir.mkdir(parents=True)
    (config_dir / "config.toml").write_text(
        f'[profiles.work]\nbase_url = "{BASE_URL}"\n'
        'credential_store = "keyring"\ncredential_kind = "org"\n',
        encoding="utf-8",
    )
    result = run_cli(
        ["sources", "rotate", "src_1", "--yes", "--save-profile", name], env=token_env()
    )
    assert result.exit_code == 2
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_closed_stdout_keeps_the_key_in_a_recovery_file_and_exits_1(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    code, stderr = run_with_stdout(
        ["sources", "rotate", "src_1", "--yes", "--secret-only"], ClosedPipe(), token_env()
    )
    assert code == 1
    (kept,) = recovery_files()
    assert kept.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(kept) == 0o600
    assert str(kept) in stderr
    assert "could not print the new key" in stderr
    assert NEW_KEY not in stderr


def test_a_closed_stdout_after_the_key_was_saved_ends_quietly(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    target = tmp_path / "intake.key"
    code, stderr = run_with_stdout(
        ["sources", "rotate", "src_1", "--yes", "--secret-file", str(target)],
        ClosedPipe(),
        token_env(),
    )
    assert code == 0, stderr
    assert target.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert recovery_files() == []


def test_ctrl_c_while_the_request_is_in_flight_does_not_lose_the_key(
    httpx_mock: HTTPXMock,
) -> None:
    def answer_after_ctrl_c(request: httpx.Request) -> httpx.Response:
        os.kill(os.getpid(), signal.SIGINT)
        return httpx.Response(200, json=ROTATION)

    httpx_mock.add_callback(answer_after_ctrl_c, method="POST", url=ROTATE_URL)
    before = signal.getsignal(signal.SIGINT)
    result = run_cli(["sources", "rotate", "src_1", "--yes", "--secret-only"], env=token_env())
    assert result.exit_code == 130
    assert result.stdout == NEW_KEY + "\n"
    # The previous handler is back: Ctrl-C works normally again.
    assert signal.getsignal(signal.SIGINT) is before


def test_run_rotate_delivers_to_the_file_and_the_profile_before_printing(
    httpx_mock: HTTPXMock, out_dir: Path, memory_keyring: DictKeyring
) -> None:
    from leadctl.commands.sources import rotate

    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    ctx = direct_context(output="json")
    target = out_dir / "key.txt"
    opts = rotate.Options(
        source_id="src_1", yes=True, secret_file=str(target), save_profile="intake"
    )
    try:
        rotate.run(opts, ctx)
    finally:
        ctx.close()
    assert target.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(target) == 0o600
    assert memory_keyring.store[("leadctl", "intake")] == NEW_KEY
    assert load_config(os.environ).profiles["intake"] == {
        "base_url": BASE_URL,
        "credential_store": "keyring",
        "credential_kind": "source",
    }
    # The file keeps the key out of stdout (cron mail, logs): what changed and where it is.
    assert json.loads(stdout_of(ctx)) == {"source": SOURCE, "secretFile": str(target)}
    assert recovery_files() == []


@pytest.mark.parametrize("output", ["table", "json"])
def test_run_rotate_keeps_the_key_when_printing_fails_with_no_os_error(
    httpx_mock: HTTPXMock, output: str
) -> None:
    """A closed stdout raises ValueError, not OSError; the drawing may raise anything. The
    old key may already be invalid, so the new one goes to a recovery file and the command
    fails, rather than ending in an unexpected error with the key gone."""
    from leadctl.commands.sources import rotate
    from leadctl.errors import LeadctlError

    httpx_mock.add_response(method="POST", url=ROTATE_URL, json=ROTATION)
    ctx = direct_context(output=output, tty=output == "table")
    ctx.ios.stdout.close()
    try:
        with pytest.raises(LeadctlError) as raised:
            rotate.run(rotate.Options(source_id="src_1", yes=True), ctx)
    finally:
        ctx.close()
    (kept,) = recovery_files()
    assert kept.read_text(encoding="utf-8") == NEW_KEY + "\n"
    assert mode_of(kept) == 0o600
    assert "could not print the new key: ValueError" in str(raised.value)
    assert str(kept) in str(raised.value) + str(raised.value.hint)
