"""OAuth sign-in (issue 15) against a stubbed authorization server (pytest-httpx): discovery,
client ids, the device grant's polling, refresh before use and after a 401, refresh
failure, `auth refresh`, logout with revocation, and --debug masking."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl.config.settings import load_config
from leadctl.config.tokens import TokenSet, from_stored
from tests.support.cli import BASE_URL, FakeClock, run_cli
from tests.support.keyrings import DictKeyring

AS = "https://login.example.test"
PRM_URL = f"{BASE_URL}/.well-known/oauth-protected-resource"
AS_METADATA_URL = f"{AS}/.well-known/oauth-authorization-server"
TOKEN_URL = f"{AS}/oauth/token"
DEVICE_URL = f"{AS}/oauth/device"
REVOKE_URL = f"{AS}/oauth/revoke"
REGISTER_URL = f"{AS}/oauth/register"
STATUSES_URL = f"{BASE_URL}/lead-statuses"
NOW = FakeClock().start.timestamp()

ACCESS_1 = "at_first_0123456789abcdefghij"
REFRESH_1 = "rt_first_0123456789abcdefghij"
ACCESS_2 = "at_second_0123456789abcdefghi"
REFRESH_2 = "rt_second_0123456789abcdefghi"
DEVICE_CODE = "dc_0123456789abcdefghijklmnop"
SECRETS = (ACCESS_1, REFRESH_1, ACCESS_2, REFRESH_2, DEVICE_CODE)


def metadata(**extra: object) -> dict[str, object]:
    doc: dict[str, object] = {
        "issuer": AS,
        "token_endpoint": TOKEN_URL,
        "authorization_endpoint": f"{AS}/oauth/authorize",
        "device_authorization_endpoint": DEVICE_URL,
        "revocation_endpoint": REVOKE_URL,
        "scopes_supported": ["openid", "offline_access", "leads"],
        "code_challenge_methods_supported": ["S256"],
    }
    doc.update(extra)
    return {k: v for k, v in doc.items() if v is not None}


def advertise(httpx_mock: HTTPXMock, **extra: object) -> None:
    httpx_mock.add_response(url=PRM_URL, json={"resource": BASE_URL, "authorization_servers": [AS]})
    httpx_mock.add_response(url=AS_METADATA_URL, json=metadata(**extra))


def device_answer(**extra: object) -> dict[str, object]:
    return {
        "device_code": DEVICE_CODE,
        "user_code": "WDJB-MJHT",
        "verification_uri": f"{AS}/device",
        "expires_in": 600,
        "interval": 5,
        **extra,
    }


def token_answer(access: str = ACCESS_1, refresh: str = REFRESH_1) -> dict[str, object]:
    return {
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": 3600,
        "refresh_token": refresh,
        "scope": "openid offline_access",
    }


def form(request: httpx.Request) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(request.content.decode()).items()}


def device_login(*extra: str) -> list[str]:
    # The contract pull that follows a login has tests of its own.
    return ["auth", "login", "--base-url", BASE_URL, "--device", "--no-contract", *extra]


def config_dir() -> Path:
    return Path(os.environ["LEADCTL_CONFIG_DIR"])


def store_tokens(keyring: DictKeyring, tokens: TokenSet, profile: str = "default") -> None:
    keyring.store[("leadctl", profile)] = tokens.to_stored()
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text(
        f'current_profile = "{profile}"\n[profiles.{profile}]\nbase_url = "{BASE_URL}"\n'
        'credential_store = "keyring"\ncredential_kind = "user"\n',
        encoding="utf-8",
    )


def signed_in(*, expires_in: float, refresh: str | None = REFRESH_1) -> TokenSet:
    return TokenSet(
        access_token=ACCESS_1,
        token_endpoint=TOKEN_URL,
        client_id="leadctl-cli",
        refresh_token=refresh,
        expires_at=NOW + expires_in,
        issuer=AS,
        revocation_endpoint=REVOKE_URL,
    )


# -- device login ---------------------------------------------------------------------------


def test_device_login_polls_as_told_checks_the_token_and_stores_the_set(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer())
    httpx_mock.add_response(url=TOKEN_URL, status_code=400, json={"error": "authorization_pending"})
    httpx_mock.add_response(url=TOKEN_URL, status_code=400, json={"error": "slow_down"})
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer())
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    clock = FakeClock()
    result = run_cli(device_login("--client-id", "leadctl-cli"), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [5, 5, 10]  # slow_down adds 5 s to the interval
    assert "WDJB-MJHT" in result.stderr and f"{AS}/device" in result.stderr
    requests = httpx_mock.get_requests()
    device_request = form(requests[2])
    assert device_request == {"client_id": "leadctl-cli", "scope": "openid offline_access"}
    poll = form(requests[3])
    assert poll["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code"
    assert poll["device_code"] == DEVICE_CODE
    assert requests[-1].headers["Authorization"] == f"Bearer {ACCESS_1}"
    stored = from_stored(memory_keyring.store[("leadctl", "default")])
    assert (stored.access_token, stored.refresh_token) == (ACCESS_1, REFRESH_1)
    assert stored.expires_at == NOW + 3600
    assert stored.revocation_endpoint == REVOKE_URL
    assert load_config(os.environ).profiles["default"]["credential_kind"] == "user"
    config = (config_dir() / "config.toml").read_text()
    assert not [s for s in SECRETS if s in result.stdout + result.stderr + config]


def test_the_client_id_comes_from_the_profile_before_registration(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    assert run_cli(["profile", "set", "oauth_client_id", "from-profile"]).exit_code == 0
    advertise(httpx_mock, registration_endpoint=REGISTER_URL)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer(interval=1))
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer())
    result = run_cli(device_login("--no-verify"))
    assert result.exit_code == 0, result.stderr
    assert form(httpx_mock.get_requests(url=DEVICE_URL)[0])["client_id"] == "from-profile"
    assert httpx_mock.get_requests(url=REGISTER_URL) == []


def test_without_a_client_id_leadctl_registers_itself(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock, registration_endpoint=REGISTER_URL)
    httpx_mock.add_response(url=REGISTER_URL, status_code=201, json={"client_id": "dyn-42"})
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer(interval=1))
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer())
    result = run_cli(device_login("--no-verify", "--scope", "leads"))
    assert result.exit_code == 0, result.stderr
    registration = json.loads(httpx_mock.get_requests(url=REGISTER_URL)[0].content)
    assert registration["token_endpoint_auth_method"] == "none"
    assert "urn:ietf:params:oauth:grant-type:device_code" in registration["grant_types"]
    assert form(httpx_mock.get_requests(url=DEVICE_URL)[0]) == {
        "client_id": "dyn-42",
        "scope": "leads",
    }
    assert from_stored(memory_keyring.store[("leadctl", "default")]).client_id == "dyn-42"


def test_no_client_id_and_no_registration_is_exit_2_saying_how(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock)
    result = run_cli(device_login())
    assert result.exit_code == 2
    assert "--client-id" in result.stderr and "oauth_client_id" in result.stderr
    assert memory_keyring.store == {}


def test_a_base_url_without_metadata_is_exit_2_naming_what_was_looked_for(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(url=PRM_URL, status_code=404)
    result = run_cli(device_login("--client-id", "x"))
    assert result.exit_code == 2
    assert PRM_URL in result.stderr
    assert "RFC 9728" in result.stderr


def test_an_openid_configuration_is_accepted(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(url=PRM_URL, json={"authorization_servers": [AS]})
    httpx_mock.add_response(url=AS_METADATA_URL, status_code=404)
    httpx_mock.add_response(url=f"{AS}/.well-known/openid-configuration", json=metadata())
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer(interval=1))
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer())
    result = run_cli(device_login("--client-id", "x", "--no-verify"))
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    "server", ["http://login.example.test", "http://10.0.0.7:8080"], ids=["name", "address"]
)
def test_a_plain_http_authorization_server_off_loopback_is_refused(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring, server: str
) -> None:
    httpx_mock.add_response(url=PRM_URL, json={"authorization_servers": [server]})
    result = run_cli(device_login("--client-id", "x"))
    assert result.exit_code == 2
    assert "plain http" in result.stderr
    assert len(httpx_mock.get_requests()) == 1  # nothing sent to it


def test_metadata_naming_another_issuer_is_refused(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    httpx_mock.add_response(url=PRM_URL, json={"authorization_servers": [AS]})
    httpx_mock.add_response(url=AS_METADATA_URL, json=metadata(issuer="https://evil.test"))
    result = run_cli(device_login("--client-id", "x"))
    assert result.exit_code == 8
    assert "another issuer" in result.stderr


def test_a_denied_sign_in_is_exit_10_and_saves_nothing(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer())
    httpx_mock.add_response(url=TOKEN_URL, status_code=400, json={"error": "access_denied"})
    result = run_cli(device_login("--client-id", "x"))
    assert result.exit_code == 10
    assert "denied" in result.stderr
    assert memory_keyring.store == {}


def test_an_expired_device_code_is_exit_3(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer())
    httpx_mock.add_response(url=TOKEN_URL, status_code=400, json={"error": "expired_token"})
    result = run_cli(device_login("--client-id", "x"))
    assert result.exit_code == 3
    assert "expired" in result.stderr and "log in again" in result.stderr
    assert memory_keyring.store == {}


def test_the_code_lifetime_ends_the_polling_without_a_server_verdict(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer(expires_in=12, interval=5))
    httpx_mock.add_response(
        url=TOKEN_URL, status_code=400, json={"error": "authorization_pending"}, is_reusable=True
    )
    clock = FakeClock()
    result = run_cli(device_login("--client-id", "x"), clock=clock)
    assert result.exit_code == 3
    assert clock.sleeps == [5, 5, 5]
    assert len(httpx_mock.get_requests(url=TOKEN_URL)) == 3


class InterruptingClock(FakeClock):
    def sleep(self, seconds: float) -> None:
        raise KeyboardInterrupt


def test_ctrl_c_while_polling_is_exit_130_and_saves_nothing(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer())
    result = run_cli(device_login("--client-id", "x"), clock=InterruptingClock())
    assert result.exit_code == 130
    assert memory_keyring.store == {}
    assert not (config_dir() / "config.toml").exists()


def test_debug_masks_every_oauth_secret(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer(interval=1))
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer())
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    result = run_cli(["--debug", *device_login("--client-id", "x")])
    assert result.exit_code == 0, result.stderr
    assert "> POST https://login.example.test/oauth/token" in result.stderr
    assert '"access_token": "***"' in result.stderr
    assert "device_code=%2A%2A%2A" in result.stderr
    assert not [s for s in SECRETS if s in result.stderr + result.stdout]


# -- using and refreshing ------------------------------------------------------------------


def test_a_token_expiring_within_60_s_is_refreshed_before_use_and_rotation_saved(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=30))
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer(ACCESS_2, REFRESH_2))
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    result = run_cli(["lead-statuses", "list", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    grant = form(httpx_mock.get_requests(url=TOKEN_URL)[0])
    assert grant == {
        "grant_type": "refresh_token",
        "refresh_token": REFRESH_1,
        "client_id": "leadctl-cli",
    }
    assert httpx_mock.get_requests(url=STATUSES_URL)[0].headers["Authorization"] == (
        f"Bearer {ACCESS_2}"
    )
    stored = from_stored(memory_keyring.store[("leadctl", "default")])
    assert (stored.access_token, stored.refresh_token) == (ACCESS_2, REFRESH_2)


def test_a_token_with_time_left_is_used_as_it_is(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=120))
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    result = run_cli(["lead-statuses", "list", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests(url=TOKEN_URL) == []


def invalid_token(httpx_mock: HTTPXMock, url: str = STATUSES_URL) -> None:
    httpx_mock.add_response(
        url=url,
        status_code=401,
        headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        json={"title": "Unauthorized", "status": 401},
    )


def test_a_401_invalid_token_refreshes_once_and_sends_again(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    invalid_token(httpx_mock)
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer(ACCESS_2, REFRESH_2))
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    result = run_cli(["lead-statuses", "list", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    sent = [r.headers["Authorization"] for r in httpx_mock.get_requests(url=STATUSES_URL)]
    assert sent == [f"Bearer {ACCESS_1}", f"Bearer {ACCESS_2}"]


def test_a_refresh_under_the_lock_uses_the_token_set_it_re_read(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    """Another process refreshed while this one held the old set: the grant must spend the
    refresh token now in the store, never the one this process read at start (a rotating
    server revokes the whole family when a refresh token is used twice)."""
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    elsewhere = TokenSet(
        access_token=ACCESS_2,
        token_endpoint=TOKEN_URL,
        client_id="leadctl-cli",
        refresh_token=REFRESH_2,
        expires_at=NOW - 5,  # refreshed by the other process, and expired since
        issuer=AS,
        revocation_endpoint=REVOKE_URL,
    )

    def refused_while_the_other_process_refreshes(request: httpx.Request) -> httpx.Response:
        memory_keyring.store[("leadctl", "default")] = elsewhere.to_stored()
        return httpx.Response(
            401,
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
            json={"title": "Unauthorized", "status": 401},
        )

    httpx_mock.add_callback(refused_while_the_other_process_refreshes, url=STATUSES_URL)
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer("at_third_0123456789", "rt_third_0"))
    httpx_mock.add_response(url=STATUSES_URL, json=[])

    result = run_cli(["lead-statuses", "list", "-o", "json"])

    assert result.exit_code == 0, result.stderr
    assert form(httpx_mock.get_requests(url=TOKEN_URL)[0])["refresh_token"] == REFRESH_2
    sent = [r.headers["Authorization"] for r in httpx_mock.get_requests(url=STATUSES_URL)]
    assert sent == [f"Bearer {ACCESS_1}", "Bearer at_third_0123456789"]
    stored = from_stored(memory_keyring.store[("leadctl", "default")])
    assert stored.refresh_token == "rt_third_0"


def test_a_second_401_after_the_refresh_is_exit_3_not_a_loop(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    invalid_token(httpx_mock)
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer(ACCESS_2, REFRESH_2))
    invalid_token(httpx_mock)
    result = run_cli(["lead-statuses", "list", "-o", "json"])
    assert result.exit_code == 3
    assert len(httpx_mock.get_requests(url=TOKEN_URL)) == 1


def test_a_401_refreshes_once_per_invocation_not_once_per_request(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    """Each page of --paginate is a request of its own: a service that refuses the renewed
    token too gets one refresh, not one a page."""
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    page_url = f"{BASE_URL}/leads/all/my"
    invalid_token(httpx_mock, page_url)
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer(ACCESS_2, REFRESH_2))
    httpx_mock.add_response(url=page_url, json={"items": [{"id": "a"}], "continuationToken": "c"})
    invalid_token(httpx_mock, page_url)
    result = run_cli(["api", "POST", "/leads/all/my", "--paginate", "-o", "ndjson"])
    assert result.exit_code == 3, result.stderr
    assert len(httpx_mock.get_requests(url=TOKEN_URL)) == 1
    sent = [r.headers["Authorization"] for r in httpx_mock.get_requests(url=page_url)]
    assert sent == [f"Bearer {ACCESS_1}", f"Bearer {ACCESS_2}", f"Bearer {ACCESS_2}"]


def test_a_401_for_a_pasted_key_is_not_retried(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    invalid_token(httpx_mock)
    result = run_cli(
        ["lead-statuses", "list"],
        env={"LEADCTL_TOKEN": "sk_live_0123456789abcdef0123", "LEADCTL_BASE_URL": BASE_URL},
    )
    assert result.exit_code == 3
    assert len(httpx_mock.get_requests()) == 1


def test_a_refused_refresh_is_exit_3_saying_to_log_in_again(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=-5))
    httpx_mock.add_response(
        url=TOKEN_URL,
        status_code=400,
        json={"error": "invalid_grant", "error_description": "refresh token revoked"},
    )
    result = run_cli(["lead-statuses", "list"])
    assert result.exit_code == 3
    assert "invalid_grant" in result.stderr
    assert "auth login --device" in result.stderr
    assert httpx_mock.get_requests(url=STATUSES_URL) == []


def test_auth_refresh_forces_a_refresh(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer(ACCESS_2, REFRESH_2))
    result = run_cli(["auth", "refresh"])
    assert result.exit_code == 0, result.stderr
    assert "expires at" in result.stderr
    stored = from_stored(memory_keyring.store[("leadctl", "default")])
    assert stored.refresh_token == REFRESH_2


def test_auth_refresh_of_a_pasted_key_is_exit_2(memory_keyring: DictKeyring) -> None:
    memory_keyring.store[("leadctl", "default")] = "sk_live_0123456789abcdef0123"
    config_dir().mkdir(parents=True)
    (config_dir() / "config.toml").write_text(
        f'[profiles.default]\nbase_url = "{BASE_URL}"\n'
        'credential_store = "keyring"\ncredential_kind = "org"\n',
        encoding="utf-8",
    )
    assert run_cli(["auth", "refresh"]).exit_code == 2


def test_status_shows_the_oauth_expiry(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    result = run_cli(["-o", "json", "auth", "status"])
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["kind"] == "user"
    assert shown["expiresAt"] == "2026-11-21T12:50:00Z"
    assert not [s for s in SECRETS if s in result.stdout + result.stderr]


def test_logout_revokes_the_refresh_token_then_deletes(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    httpx_mock.add_response(url=REVOKE_URL, status_code=200)
    result = run_cli(["auth", "logout"])
    assert result.exit_code == 0, result.stderr
    revoked = form(httpx_mock.get_requests(url=REVOKE_URL)[0])
    assert revoked["token"] == REFRESH_1 and revoked["token_type_hint"] == "refresh_token"
    assert "revoked the refresh token" in result.stderr
    assert memory_keyring.store == {}


def test_logout_deletes_even_when_revocation_fails(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    httpx_mock.add_exception(httpx.ConnectError("refused"), url=REVOKE_URL)
    result = run_cli(["auth", "logout"])
    assert result.exit_code == 0, result.stderr
    assert "could not revoke" in result.stderr
    assert memory_keyring.store == {}


def test_a_dry_run_sends_no_refresh(httpx_mock: HTTPXMock, memory_keyring: DictKeyring) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=10))
    result = run_cli(["--dry-run", "lead-statuses", "list"])
    assert result.exit_code == 0, result.stderr
    assert "curl" in result.stdout and ACCESS_1 not in result.stdout
    assert httpx_mock.get_requests() == []


@dataclass
class MovableClock(FakeClock):
    offset: float = 0.0

    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.offset)


def test_a_long_run_refreshes_when_the_token_nears_expiry_mid_way(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    store_tokens(memory_keyring, signed_in(expires_in=3000))
    clock = MovableClock()
    page_url = f"{BASE_URL}/leads/all/my"

    def first_page(request: httpx.Request) -> httpx.Response:
        clock.offset = 2990  # the page took its time: the token now expires within 60 s
        return httpx.Response(200, json={"items": [{"id": "a"}], "continuationToken": "c1"})

    httpx_mock.add_callback(first_page, url=page_url)
    httpx_mock.add_response(url=TOKEN_URL, json=token_answer(ACCESS_2, REFRESH_2))
    httpx_mock.add_response(url=page_url, json={"items": [{"id": "b"}]})
    result = run_cli(["api", "POST", "/leads/all/my", "--paginate", "-o", "ndjson"], clock=clock)
    assert result.exit_code == 0, result.stderr
    sent = [r.headers["Authorization"] for r in httpx_mock.get_requests(url=page_url)]
    assert sent == [f"Bearer {ACCESS_1}", f"Bearer {ACCESS_2}"]
    assert len(httpx_mock.get_requests(url=TOKEN_URL)) == 1


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="Linux display rules")
@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, False),
        ({"DISPLAY": ":0"}, True),
        ({"WAYLAND_DISPLAY": "w-0"}, True),
        ({"BROWSER": "firefox"}, True),
    ],
)
def test_the_browser_is_opened_only_where_it_would_not_take_over_the_terminal(
    env: dict[str, str], expected: bool
) -> None:
    from leadctl.oauth.browser import desktop_browser

    assert desktop_browser(env) is expected


def _unsigned_jwt(claims: dict[str, object]) -> str:
    import base64

    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")

    return f"{part({'alg': 'HS256'})}.{part(claims)}.c2lnbmF0dXJlX2lk"


def test_status_shows_who_signed_in_from_the_id_token(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    id_token = _unsigned_jwt(
        {
            "sub": "u1",
            "email": "ada@example.test",
            "name": "Ada L",
            "org_id": "o1",
            "org_name": "Analytical",
        }
    )
    advertise(httpx_mock)
    httpx_mock.add_response(url=DEVICE_URL, json=device_answer(interval=1))
    httpx_mock.add_response(url=TOKEN_URL, json={**token_answer(), "id_token": id_token})
    login = run_cli(device_login("--client-id", "x", "--no-verify"))
    assert login.exit_code == 0, login.stderr
    assert id_token not in memory_keyring.store[("leadctl", "default")]  # not kept
    httpx_mock.add_response(url=STATUSES_URL, json=[])
    status = run_cli(["-o", "json", "auth", "status"])
    assert status.exit_code == 0, status.stderr
    shown = json.loads(status.stdout)
    assert shown["account"] == "Ada L <ada@example.test>"
    assert shown["organization"] == "Analytical (o1)"
