"""The sandbox's authorization server, spoken to directly: what a client may not get away
with (wrong PKCE verifier, unregistered redirect, code reuse, refresh-token replay,
unknown clients), and that its tokens are accepted by the API."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.sandbox_server import SandboxProcess

REDIRECT = "http://127.0.0.1:1/callback"  # never contacted: redirects are read, not followed


@pytest.fixture
def oauth(sandbox: SandboxProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=sandbox.base_url, timeout=10) as client:
        yield client


def challenge(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def authorize(oauth: httpx.Client, verifier: str, **extra: str) -> httpx.Response:
    params = {
        "response_type": "code",
        "client_id": "leadctl",
        "redirect_uri": REDIRECT,
        "state": "s1",
        "scope": "openid offline_access",
        "code_challenge": challenge(verifier),
        "code_challenge_method": "S256",
        **extra,
    }
    return oauth.get("/oauth/authorize", params=params)


def code_from(response: httpx.Response) -> str:
    assert response.status_code == 302
    location = httpx.URL(response.headers["location"])
    assert location.params["state"] == "s1"
    return location.params["code"]


def exchange(oauth: httpx.Client, code: str, verifier: str) -> httpx.Response:
    return oauth.post(
        "/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": "leadctl",
            "code_verifier": verifier,
        },
    )


def refresh(oauth: httpx.Client, token: str) -> httpx.Response:
    return oauth.post(
        "/oauth/token",
        data={"grant_type": "refresh_token", "refresh_token": token, "client_id": "leadctl"},
    )


def signed_in(oauth: httpx.Client) -> dict[str, Any]:
    verifier = secrets.token_urlsafe(48)
    answer = exchange(oauth, code_from(authorize(oauth, verifier)), verifier)
    assert answer.status_code == 200, answer.text
    tokens: dict[str, Any] = answer.json()
    return tokens


def test_metadata_names_the_server_and_its_endpoints(
    oauth: httpx.Client, sandbox: SandboxProcess
) -> None:
    resource = oauth.get("/.well-known/oauth-protected-resource").json()
    assert resource["resource"] == sandbox.base_url
    (issuer,) = resource["authorization_servers"]
    assert issuer == sandbox.base_url + "/oauth"
    metadata = oauth.get("/.well-known/oauth-authorization-server/oauth").json()
    assert metadata["issuer"] == issuer
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["device_authorization_endpoint"] == issuer + "/device_authorization"


def test_a_code_needs_the_right_verifier_and_works_once(oauth: httpx.Client) -> None:
    verifier = secrets.token_urlsafe(48)
    code = code_from(authorize(oauth, verifier))
    wrong = exchange(oauth, code, secrets.token_urlsafe(48))
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    # The failed attempt used the code up, as a stolen code must be.
    again = exchange(oauth, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


def test_pkce_is_required(oauth: httpx.Client) -> None:
    response = authorize(oauth, "v" * 43, code_challenge_method="plain")
    assert response.status_code == 302
    assert httpx.URL(response.headers["location"]).params["error"] == "invalid_request"


def test_a_redirect_off_loopback_is_refused_without_redirecting(oauth: httpx.Client) -> None:
    response = authorize(oauth, "v" * 43, redirect_uri="https://attacker.example/cb")
    assert response.status_code == 400
    assert "location" not in response.headers


def test_an_unknown_client_is_refused(oauth: httpx.Client) -> None:
    response = oauth.post("/oauth/device_authorization", data={"client_id": "nobody"})
    assert response.status_code == 401 and response.json()["error"] == "invalid_client"


def test_the_access_token_is_accepted_by_the_api(oauth: httpx.Client) -> None:
    tokens = signed_in(oauth)
    assert tokens["token_type"] == "Bearer" and tokens["expires_in"] > 0
    answer = oauth.get(
        "/lead-statuses", headers={"Authorization": f"Bearer {tokens['access_token']}"}
    )
    assert answer.status_code == 200


def test_refresh_tokens_rotate_and_a_replay_revokes_the_family(oauth: httpx.Client) -> None:
    first = signed_in(oauth)["refresh_token"]
    second = refresh(oauth, first)
    assert second.status_code == 200
    newer = second.json()["refresh_token"]
    assert (newer != first) is True
    replay = refresh(oauth, first)
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    # The replay revoked the newer token too: whoever holds it must sign in again.
    assert refresh(oauth, newer).status_code == 400


def test_revocation_ends_the_refresh_token(oauth: httpx.Client) -> None:
    token = signed_in(oauth)["refresh_token"]
    revoked = oauth.post(
        "/oauth/revoke",
        data={"token": token, "token_type_hint": "refresh_token", "client_id": "leadctl"},
    )
    assert revoked.status_code == 200
    assert refresh(oauth, token).status_code == 400
    # An unknown token is answered 200 as well (RFC 7009 2.2).
    unknown = oauth.post("/oauth/revoke", data={"token": "nope", "client_id": "leadctl"})
    assert unknown.status_code == 200


def test_device_codes_wait_for_the_decision(oauth: httpx.Client) -> None:
    started = oauth.post(
        "/oauth/device_authorization", data={"client_id": "leadctl", "scope": "openid"}
    ).json()
    poll = {
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
        "device_code": started["device_code"],
        "client_id": "leadctl",
    }
    pending = oauth.post("/oauth/token", data=poll)
    assert pending.json()["error"] in ("authorization_pending", "slow_down")
    decided = oauth.post(
        "/oauth/device", json={"user_code": started["user_code"], "decision": "approve"}
    )
    assert decided.status_code == 200
    granted = oauth.post("/oauth/token", data=poll)
    assert granted.status_code == 200 and "access_token" in granted.json()
    assert "refresh_token" not in granted.json()  # no offline_access asked for
    used = oauth.post("/oauth/token", data=poll)
    assert used.json()["error"] == "invalid_grant"
