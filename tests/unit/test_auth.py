"""``leadctl auth``: login checks before saving, stores, status, logout, token."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from pytest_httpx import HTTPXMock

from leadctl.config import load_config
from tests.support.cli import BASE_URL, ORG_KEY, run_cli
from tests.support.keyrings import DictKeyring, RaisingKeyring

SOURCE_KEY = "src_live_abcdefghijklmnopqrstu"


def config_dir() -> Path:
    return Path(os.environ["LEADCTL_CONFIG_DIR"])


def config_text() -> str:
    return (config_dir() / "config.toml").read_text()


def login(*extra: str) -> list[str]:
    return ["auth", "login", "--base-url", BASE_URL, "--with-token", "--no-contract", *extra]


def test_login_checks_the_credential_then_stores_it_in_the_keyring(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses", json=[])
    result = run_cli(login(), stdin=ORG_KEY + "\n")
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert memory_keyring.store[("leadctl", "default")] == ORG_KEY
    config = load_config(os.environ)
    assert config.current_profile == "default"
    assert config.profiles["default"] == {
        "base_url": BASE_URL,
        "credential_store": "keyring",
        "credential_kind": "org",
    }
    assert ORG_KEY not in config_text()
    assert ORG_KEY not in result.stdout + result.stderr


def test_login_with_a_rejected_credential_saves_nothing(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(status_code=401, json={"title": "Unauthorized", "status": 401})
    result = run_cli(login(), stdin=ORG_KEY)
    assert result.exit_code == 3
    assert "nothing was saved" in result.stderr
    assert memory_keyring.store == {}
    assert not (config_dir() / "config.toml").exists()


def test_source_key_is_saved_unchecked(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    result = run_cli(login("--kind", "source"), stdin=SOURCE_KEY)
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests() == []
    assert "saved unchecked" in result.stderr
    assert 'credential_kind = "source"' in config_text()


def test_kind_mismatch_is_a_usage_error(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    result = run_cli(login("--kind", "org"), stdin=SOURCE_KEY)
    assert result.exit_code == 2
    assert memory_keyring.store == {}


def test_no_verify_skips_the_check(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    result = run_cli(login("--no-verify"), stdin=ORG_KEY)
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests() == []


def test_insecure_storage_writes_a_0600_file_and_warns_on_every_use(
    httpx_mock: HTTPXMock, use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    keyring_calls = use_keyring(RaisingKeyring(keyring.errors.KeyringLocked("locked")))
    result = run_cli(login("--insecure-storage", "--no-verify"), stdin=ORG_KEY)
    assert result.exit_code == 0, result.stderr
    stored = config_dir() / "credentials" / "default"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert stored.read_text().strip() == ORG_KEY
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[])
    used = run_cli(["api", "GET", "/lead-statuses"])
    assert used.exit_code == 0, used.stderr
    assert "warning:" in used.stderr and "--insecure-storage" in used.stderr
    assert isinstance(keyring_calls, RaisingKeyring)
    assert keyring_calls.calls == []  # never touched the keyring


def test_a_locked_keyring_is_a_clear_error_naming_the_ways_out(
    httpx_mock: HTTPXMock, use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    use_keyring(RaisingKeyring(keyring.errors.KeyringLocked("collection is locked")))
    result = run_cli(login("--no-verify"), stdin=ORG_KEY)
    assert result.exit_code == 3
    assert "LEADCTL_TOKEN" in result.stderr
    assert "--insecure-storage" in result.stderr
    assert ORG_KEY not in result.stderr


def test_status_token_and_logout(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    assert run_cli(login("--no-verify"), stdin=ORG_KEY).exit_code == 0
    status = run_cli(["-o", "json", "auth", "status"])
    assert status.exit_code == 0, status.stderr
    assert json.loads(status.stdout)["kind"] == "org"
    assert ORG_KEY not in status.stdout
    assert "…" + ORG_KEY[-4:] in status.stdout
    token = run_cli(["auth", "token"])
    assert token.stdout == ORG_KEY + "\n"
    logout = run_cli(["auth", "logout"])
    assert logout.exit_code == 0, logout.stderr
    assert memory_keyring.store == {}
    after = run_cli(["auth", "status"])
    assert after.exit_code == 3


def test_status_without_any_credential_is_exit_3() -> None:
    result = run_cli(["auth", "status"])
    assert result.exit_code == 3
    assert "auth login" in result.stderr


def test_login_without_a_terminal_or_with_token_refuses_to_prompt(
    memory_keyring: DictKeyring,
) -> None:
    result = run_cli(["auth", "login", "--base-url", BASE_URL])
    assert result.exit_code == 2
    assert "--with-token" in result.stderr


@pytest.mark.parametrize("stdin", ["", "   \n", "two tokens\n"])
def test_login_rejects_empty_or_split_input(stdin: str, memory_keyring: DictKeyring) -> None:
    result = run_cli(login("--no-verify"), stdin=stdin)
    assert result.exit_code == 2
    assert memory_keyring.store == {}
