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

from leadctl.config.settings import load_config
from leadctl.errors import UsageError
from tests.support.cli import BASE_URL, ORG_KEY, run_cli
from tests.support.keyrings import DictKeyring, RaisingKeyring
from tests.support.run_context import direct_context, stderr_of

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


def test_kind_is_recorded_as_the_user_says_whatever_the_value_looks_like(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses", json=[])
    result = run_cli(login("--kind", "org"), stdin=SOURCE_KEY)
    assert result.exit_code == 0, result.stderr
    assert 'credential_kind = "org"' in config_text()
    assert httpx_mock.get_request().headers["Authorization"] == f"Bearer {SOURCE_KEY}"


def test_a_value_of_no_recognised_kind_is_checked_as_a_bearer_credential_and_no_kind_recorded(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses", json=[])
    result = run_cli(login(), stdin=SOURCE_KEY)
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_request().headers["Authorization"] == f"Bearer {SOURCE_KEY}"
    assert "credential_kind" not in config_text()
    assert "credential of no recognised kind" in result.stderr
    assert "saved unchecked" not in result.stderr


def test_a_refused_value_of_no_recognised_kind_says_how_to_log_in_a_source_key(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(status_code=401, json={"title": "Unauthorized", "status": 401})
    result = run_cli(login(), stdin=SOURCE_KEY)
    assert result.exit_code == 3
    assert "nothing was saved" in result.stderr and "--kind source" in result.stderr
    assert SOURCE_KEY not in result.stderr
    assert memory_keyring.store == {}


def test_no_verify_skips_the_check(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    result = run_cli(login("--no-verify"), stdin=ORG_KEY)
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests() == []


def test_insecure_storage_writes_a_0600_file_and_warns_at_login_not_on_use(
    httpx_mock: HTTPXMock, use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    keyring_calls = use_keyring(RaisingKeyring(keyring.errors.KeyringLocked("locked")))
    result = run_cli(login("--insecure-storage", "--no-verify"), stdin=ORG_KEY)
    assert result.exit_code == 0, result.stderr
    assert "warning: the credential is stored unencrypted" in result.stderr
    stored = config_dir() / "credentials" / "default"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert stored.read_text().strip() == ORG_KEY
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[])
    used = run_cli(["api", "GET", "/lead-statuses"])
    assert used.exit_code == 0, used.stderr
    assert used.stderr == ""  # cron mail stays empty
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
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses", json=[])
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


# -- issue 14: the store checked first, quiet plain-file use, an honest status ------------


def test_login_says_the_keyring_is_unusable_before_asking_for_the_secret(
    use_keyring: Callable[[KeyringBackend], KeyringBackend],
) -> None:
    use_keyring(RaisingKeyring(keyring.errors.KeyringLocked("collection is locked")))
    result = run_cli(["auth", "login", "--base-url", BASE_URL], tty=True, stdin=ORG_KEY + "\n")
    assert result.exit_code == 3
    assert "keyring is not usable" in result.stderr
    assert "Paste the credential" not in result.stderr
    assert result.ios.stdin.read() == ORG_KEY + "\n"  # the secret was never read


def test_a_plain_file_credential_warns_at_login_and_in_status_only(
    httpx_mock: HTTPXMock, use_keyring: Callable[[KeyringBackend], KeyringBackend]
) -> None:
    use_keyring(RaisingKeyring(keyring.errors.KeyringLocked("locked")))
    result = run_cli(login("--insecure-storage", "--no-verify"), stdin=ORG_KEY)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("warning:") == 1
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[])
    quiet = run_cli(["-q", "api", "GET", "/lead-statuses"])
    assert quiet.exit_code == 0, quiet.stderr
    assert quiet.stderr == ""
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[])
    status = run_cli(["-o", "json", "auth", "status"])
    assert status.exit_code == 0, status.stderr
    warning = f"warning: the credential is stored unencrypted in file {config_dir()}"
    assert status.stderr.startswith(warning)
    store = json.loads(status.stdout)["store"]
    assert "unencrypted (--insecure-storage)" in store
    assert str(config_dir() / "credentials" / "default") in store


def test_status_exits_3_when_the_service_refuses_the_credential(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{BASE_URL}/lead-statuses",
        status_code=401,
        headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        json={"title": "Unauthorized", "status": 401},
    )
    result = run_cli(
        ["auth", "status"], env={"LEADCTL_TOKEN": "sk_bogus", "LEADCTL_BASE_URL": BASE_URL}
    )
    assert result.exit_code == 3
    assert "refused" in result.stderr
    assert result.stdout == ""
    assert len(httpx_mock.get_requests()) == 1  # one read, never retried


def test_status_checks_an_unrecognised_value_with_the_service(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[])
    env = {"LEADCTL_TOKEN": "garbage", "LEADCTL_BASE_URL": BASE_URL}
    result = run_cli(["-o", "json", "auth", "status"], env=env)
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["kind"] == "unknown"
    assert shown["checked"].startswith("yes")
    assert httpx_mock.get_request().headers["Authorization"] == "Bearer garbage"


def test_status_calls_a_declared_source_key_a_source_key(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    assert run_cli(login("--kind", "source"), stdin=SOURCE_KEY).exit_code == 0
    result = run_cli(["-o", "json", "auth", "status"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["kind"] == "source"
    assert httpx_mock.get_requests() == []


def _jwt(claims: dict[str, object]) -> str:
    import base64

    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJlX3g5Wq"


def test_status_shows_a_user_tokens_expiry(httpx_mock: HTTPXMock) -> None:
    token = _jwt({"sub": "u1", "exp": 1_900_000_000})
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[])
    result = run_cli(
        ["-o", "json", "auth", "status"], env={"LEADCTL_TOKEN": token, "LEADCTL_BASE_URL": BASE_URL}
    )
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["kind"] == "user"
    assert shown["expiresAt"] == "2030-03-17T17:46:40Z"
    assert token not in result.stdout


ME_CONTRACT = {
    "openapi": "3.1.0",
    "info": {"title": "with a current-user read", "version": "1"},
    "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    "security": [{"bearer": []}],
    "paths": {
        "/lead-statuses": {
            "get": {"operationId": "listLeadStatuses", "responses": {"200": {"description": "ok"}}}
        },
        "/users/me": {
            "get": {
                "operationId": "Users_GetCurrentUser",
                "tags": ["Users"],
                "responses": {"200": {"description": "the caller"}},
            }
        },
    },
}


def test_status_shows_who_the_credential_belongs_to_when_the_contract_can_say(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring, tmp_path: Path
) -> None:
    assert run_cli(login("--no-verify"), stdin=ORG_KEY).exit_code == 0
    contract = tmp_path / "contract.json"
    contract.write_text(json.dumps(ME_CONTRACT))
    imported = run_cli(["contract", "import", str(contract)])
    assert imported.exit_code == 0, imported.stderr
    httpx_mock.add_response(
        method="GET",
        url=f"{BASE_URL}/users/me",
        json={
            "email": "ada@example.test",
            "firstName": "Ada",
            "lastName": "Lovelace",
            "currentOrganization": {"id": "org_1", "name": "Analytical"},
        },
    )
    result = run_cli(["-o", "json", "auth", "status"])
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["account"] == "Ada Lovelace <ada@example.test>"
    assert shown["organization"] == "Analytical (org_1)"
    assert shown["checked"] == "yes (GET /users/me)"


# -- run(opts, ctx) without Typer ----------------------------------------------------------


def test_run_login_checks_then_records_the_profile_and_logout_forgets_it(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    from leadctl.commands.auth import login as login_verb
    from leadctl.commands.auth import logout as logout_verb

    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses", json=[])
    ctx = direct_context(stdin=ORG_KEY + "\n", profile="work", signed_in=False)
    opts = login_verb.Options(base_url=BASE_URL, with_token=True, no_contract=True)
    login_verb.run(opts, ctx)
    request = httpx_mock.get_request()
    assert request is not None and request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert memory_keyring.store[("leadctl", "work")] == ORG_KEY
    config = load_config(os.environ)
    assert config.current_profile == "work"
    assert config.profiles["work"] == {
        "base_url": BASE_URL,
        "credential_store": "keyring",
        "credential_kind": "org",
    }
    assert "logged in: profile work, org credential" in stderr_of(ctx)

    ctx = direct_context(profile="work", signed_in=False)
    logout_verb.run(logout_verb.Options(), ctx)
    assert memory_keyring.store == {}
    assert load_config(os.environ).profiles["work"] == {"base_url": BASE_URL}
    assert "logged out of profile work" in stderr_of(ctx)


def test_run_login_refuses_device_and_web_together_before_anything(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    from leadctl.commands.auth import login as login_verb

    ctx = direct_context(signed_in=False)
    with pytest.raises(UsageError, match="choose one"):
        login_verb.run(login_verb.Options(base_url=BASE_URL, device=True, web=True), ctx)
    assert memory_keyring.store == {}
    assert not (config_dir() / "config.toml").exists()
