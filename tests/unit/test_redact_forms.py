"""The credential is masked in every form a service may echo it in (issue 22 point 6):
without its kind prefix, base64 (inside a longer base64 text too), percent-encoded; and
headers and problem documents are masked by the one name rule."""

from __future__ import annotations

import base64
from urllib.parse import quote

import pytest

from leadctl.config.redact import MASK, mask_secrets, redact_headers, redact_problem
from tests.security.secrets import leaks

KEY = "sk_live_Zq8uWc3pLr5tVx7yNb2mKd4f"


@pytest.mark.parametrize(
    "echo",
    [
        f"unknown key {KEY}",
        f"unknown key {KEY.removeprefix('sk_')}",
        f"unknown key {KEY.removeprefix('sk_live_')}",
        f"basic {base64.b64encode(f'user:{KEY}'.encode()).decode()}",
        f"sent {base64.b64encode(f'Bearer {KEY}'.encode()).decode()}",
        f"sent {base64.urlsafe_b64encode(('x' + KEY).encode()).decode().rstrip('=')}",
        f"sent {base64.b64encode(('xx' + KEY).encode()).decode()}",
        f"redirect to /cb?key={quote(KEY + '/+', safe='')}",
    ],
    ids=["raw", "no-sk", "no-kind", "basic", "bearer-b64", "urlsafe-1", "b64-2", "url-encoded"],
)
def test_every_echoed_form_of_the_credential_is_masked(echo: str) -> None:
    secret = KEY + "/+" if "%2F" in echo else KEY
    shown = mask_secrets(echo, [secret])
    assert leaks(shown, [secret]) == []
    assert MASK in shown


def test_text_without_the_secret_is_left_as_it_was() -> None:
    text = "lead 3fa85f64-5717-4562-b3fc-2c963f66afa6 is not valid; live_ mode"
    assert mask_secrets(text, [KEY]) == text


def test_headers_are_masked_by_the_name_rule() -> None:
    headers = [
        ("X-Api-Key", "k1"),
        ("X-Auth-Token", "t1"),
        ("webhook-signature", "v1,abc"),
        ("Cookie", "session=1"),
        ("Idempotency-Key", "idem-1"),
        ("Content-Type", "application/json"),
        ("X-Custom", "plain"),
    ]
    assert redact_headers(headers, ["X-Custom"]) == [
        ("X-Api-Key", MASK),
        ("X-Auth-Token", MASK),
        ("webhook-signature", MASK),
        ("Cookie", MASK),
        ("Idempotency-Key", "idem-1"),
        ("Content-Type", "application/json"),
        ("X-Custom", MASK),
    ]


def test_a_problem_keeps_field_names_and_masks_secret_members_and_echoes() -> None:
    problem = {
        "title": "Bad Request",
        "detail": f"key {KEY.removeprefix('sk_')} refused",
        "errors": {"apiKey": ["must not be empty"], "name": [f"not {KEY}"]},
        "received": {"apiKey": "src_old_key_0123456789", "name": "web"},
    }
    shown = redact_problem(problem, [KEY])
    assert shown == {
        "title": "Bad Request",
        "detail": f"key {MASK} refused",
        "errors": {"apiKey": ["must not be empty"], "name": [f"not {MASK}"]},
        "received": {"apiKey": MASK, "name": "web"},
    }
