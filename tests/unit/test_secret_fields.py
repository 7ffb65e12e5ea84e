"""One rule says which field, key or header holds a secret (issue 21 point 4, issue 22 point
6): by a word of its name wherever it sits, or by what a schema says of it; never an id, a
preview, a timestamp or another kind of key."""

from __future__ import annotations

import pytest

from leadctl.util.secret_fields import is_secret, mask_members, secret_members

SECRET_NAMES = [
    "apiKey",
    "newApiKey",
    "clientSecret",
    "client_secret",
    "refresh_token",
    "accessToken",
    "x-api-key",
    "X-Api-Key",
    "X-Source-Key",
    "Authorization",
    "Proxy-Authorization",
    "Cookie",
    "Set-Cookie",
    "webhook-signature",
    "X-Hub-Signature-256",
    "password",
    "userPassword",
    "APIKey",
    "xapikey",
    "signingSecretValue",
    "credentials",
    "intakeKey",
]
NOT_SECRET_NAMES = [
    "apiKeyPreview",
    "apiKeyRotatedAt",
    "apiKeyLast4",
    "keyId",
    "apiKeyID",
    "secretIds",
    "token_type",
    "tokenType",
    "expires_in",
    "refreshTokenExpiresAt",
    "token_endpoint",
    "continuationToken",
    "nextPageToken",
    "Idempotency-Key",
    "idempotencyKey",
    "publicKey",
    "sortKey",
    "keyName",
    "monkey",
    "keyboardLayout",
    "author",
    "WWW-Authenticate",
    "Content-Type",
    "id",
    "name",
]


@pytest.mark.parametrize("name", SECRET_NAMES)
def test_a_word_of_the_name_anywhere_in_it_makes_a_secret(name: str) -> None:
    assert is_secret(name)


@pytest.mark.parametrize("name", NOT_SECRET_NAMES)
def test_ids_previews_timestamps_and_other_kinds_of_key_are_not_secrets(name: str) -> None:
    assert not is_secret(name)


def test_what_a_schema_says_decides_where_the_name_does_not() -> None:
    assert is_secret("intakeCode", description="The source's intake API key.")
    assert is_secret("pin", write_only=True)
    assert is_secret("value", fmt="password")
    # A boolean that asks for a new key, a time the key changed, a preview described as such.
    assert not is_secret(
        "regenerateApiKey",
        description="Set to true to have the service issue a new API key.",
        kind="boolean",
    )
    assert not is_secret("keyChanged", description="When the API key changed.", fmt="date-time")
    assert not is_secret("shown", description="The last four characters of the API key.")
    assert not is_secret("notes", description="Free text about the source.")


def test_members_under_a_secret_are_masked_but_what_describes_it_stays() -> None:
    value = {
        "name": "web",
        "credentials": {"user": "u1", "pass": "p-123", "keyId": "k1", "issuedAt": "2026-01-01"},
        "keys": ["aaaa", "bbbb"],
        "clientSecret": "",
        "regenerateApiKey": True,
        "nested": [{"newApiKey": "n-1", "apiKeyPreview": "…1234"}],
    }

    masked = mask_members(value, mask=lambda _v: "***")

    assert masked == {
        "name": "web",
        "credentials": {"user": "***", "pass": "***", "keyId": "k1", "issuedAt": "2026-01-01"},
        "keys": ["***", "***"],
        "clientSecret": "",  # nothing to hide in an empty one
        "regenerateApiKey": True,
        "nested": [{"newApiKey": "***", "apiKeyPreview": "…1234"}],
    }
    assert sorted(secret_members(value)) == ["aaaa", "bbbb", "n-1", "p-123", "u1"]
