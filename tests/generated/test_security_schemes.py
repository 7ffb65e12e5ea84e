"""Which credential kinds a scheme admits, where it puts the credential, and the source-key
prefixes a contract names (issue 21.14, 23.8)."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.contract.security import credential_rule, scheme_is_source_key, source_key_prefixes

BEARER = {"in": "header", "name": "Authorization", "scheme": "bearer"}


@pytest.mark.parametrize(
    ("name", "scheme", "source"),
    [
        ("SourceKey", {"type": "apiKey", "in": "header", "name": "X-Source-Key"}, True),
        ("key", {"type": "apiKey", "in": "header", "name": "X-Intake-Key"}, True),
        (
            "k",
            {"type": "apiKey", "in": "query", "name": "k", "description": "A source's key."},
            True,
        ),
        ("k", {"type": "http", "scheme": "bearer", "bearerFormat": "source key"}, True),
        # An apiKey scheme is not a source-key scheme for being one.
        ("ApiKeyAuth", {"type": "apiKey", "in": "header", "name": "X-API-Key"}, False),
        ("api_key", {"type": "apiKey", "in": "query", "name": "api_key"}, False),
        (
            "bearerAuth",
            {
                "type": "http",
                "scheme": "bearer",
                "description": "A user JWT, an organization API key, or on intake a source key.",
            },
            False,
        ),
    ],
)
def test_a_scheme_is_a_source_key_scheme_only_when_it_says_so(
    name: str, scheme: dict[str, Any], source: bool
) -> None:
    assert scheme_is_source_key(name, scheme) is source


def document(schemes: dict[str, Any], security: Any) -> dict[str, Any]:
    return {"components": {"securitySchemes": schemes}, "security": security}


@pytest.mark.parametrize(
    ("scheme", "place"),
    [
        ({"type": "http", "scheme": "bearer"}, BEARER),
        ({"type": "oauth2", "flows": {}}, BEARER),
        ({"type": "openIdConnect", "openIdConnectUrl": "https://x"}, BEARER),
        (
            {"type": "http", "scheme": "basic"},
            {"in": "header", "name": "Authorization", "scheme": "basic"},
        ),
        (
            {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            {"in": "header", "name": "X-API-Key", "scheme": "key"},
        ),
        (
            {"type": "apiKey", "in": "query", "name": "api_key"},
            {"in": "query", "name": "api_key", "scheme": "key"},
        ),
        (
            {"type": "apiKey", "in": "cookie", "name": "sid"},
            {"in": "cookie", "name": "sid", "scheme": "key"},
        ),
        # Swashbuckle's "Bearer" apiKey: the header holds "Bearer TOKEN", the user stores TOKEN.
        (
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": "JWT Authorization header using the Bearer scheme.",
            },
            BEARER,
        ),
        (
            {"type": "apiKey", "in": "header", "name": "Authorization"},
            {"in": "header", "name": "Authorization", "scheme": "key"},
        ),
    ],
)
def test_the_credential_goes_where_the_scheme_puts_it(
    scheme: dict[str, Any], place: dict[str, str]
) -> None:
    rule = credential_rule(document({"S": scheme}, [{"S": []}]), {})
    assert rule == {
        "kinds": ["org", "user"],
        "auth": [{"kinds": ["org", "user"], "places": [place]}],
    }


@pytest.mark.parametrize("security", [[], [{}], [{}, {"S": []}], [{"S": []}, {}]])
def test_no_or_optional_security_takes_no_credential(security: list[Any]) -> None:
    scheme = {"type": "http", "scheme": "bearer"}
    assert credential_rule(document({"S": scheme}, security), {}) == {"kinds": [], "auth": []}


def test_alternatives_keep_their_own_kinds_and_places() -> None:
    schemes = {
        "Bearer": {"type": "http", "scheme": "bearer"},
        "SourceKey": {"type": "apiKey", "in": "header", "name": "X-Source-Key"},
    }
    rule = credential_rule(
        document(schemes, None), {"security": [{"Bearer": []}, {"SourceKey": []}]}
    )
    assert rule["kinds"] == ["org", "user", "source"]
    assert [a["kinds"] for a in rule["auth"]] == [["org", "user"], ["source"]]


@pytest.mark.parametrize(
    ("description", "prefixes"),
    [
        ("A lead source's intake key (lp_src_...).", ["lp_src_"]),
        ("Source keys look like src_xxxxxxxx.", ["src_"]),
        ("A source key; keys start with `srck-`.", ["srck-"]),
        ("A source key, prefixed with lp_src_ and 32 characters.", ["lp_src_"]),
        ("A source key. It starts with the source's name.", []),
        ("A source key.", []),
    ],
)
def test_a_source_key_scheme_names_its_prefix(description: str, prefixes: list[str]) -> None:
    scheme = {"type": "apiKey", "in": "header", "name": "X-Source-Key", "description": description}
    assert source_key_prefixes(document({"SourceKey": scheme}, None)) == prefixes


def test_only_source_key_schemes_name_prefixes() -> None:
    scheme = {"type": "http", "scheme": "bearer", "description": "Organization keys (sk_...)."}
    assert source_key_prefixes(document({"Bearer": scheme}, None)) == []
