"""One recursive masking of JSON for --debug: the client's (any secret-looking member, and
credential-shaped text) and the OAuth trace's (exactly the OAuth secret fields)."""

from __future__ import annotations

import json

from leadctl.config.redact import MASK, redact_body, redact_json
from leadctl.oauth.http import mask_body


def test_the_client_masks_secret_looking_members_at_any_depth_and_tokens_in_text() -> None:
    body = {
        "name": "web",
        "intakeKey": {"apiKey": "src_abcdef123456"},
        "rotated": [{"secret": "s3cr3t"}, {"password": ""}],
        "note": "sent with Bearer abc.def",
        "continuationToken": "page-2",
    }
    assert redact_json(body) == {
        "name": "web",
        "intakeKey": {"apiKey": MASK},
        "rotated": [{"secret": MASK}, {"password": ""}],  # nothing to hide in an empty one
        "note": f"sent with {MASK}",
        "continuationToken": "page-2",  # a cursor, not a credential
    }
    shown = redact_body(json.dumps(body).encode(), "application/json")
    assert "s3cr3t" not in shown and "src_abcdef123456" not in shown


def test_the_oauth_trace_masks_exactly_the_oauth_secret_fields() -> None:
    answer = {
        "access_token": "at-123",
        "token_type": "Bearer",  # secret-looking to the client's rule, not an OAuth secret
        "expires_in": 3600,
        "extra": {"refresh_token": "rt-456", "scope": "leads:read"},
    }
    shown = json.loads(mask_body(json.dumps(answer).encode(), "application/json"))
    assert shown == {
        "access_token": MASK,
        "token_type": "Bearer",
        "expires_in": 3600,
        "extra": {"refresh_token": MASK, "scope": "leads:read"},
    }


def test_the_oauth_trace_masks_form_fields_too() -> None:
    form = b"grant_type=refresh_token&refresh_token=rt-456&client_id=cli"
    shown = mask_body(form, "application/x-www-form-urlencoded")
    assert "rt-456" not in shown
    assert "grant_type=refresh_token" in shown and "client_id=cli" in shown
