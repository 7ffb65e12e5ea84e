"""One masking rule for table cells and credential previews: a secret shorter than twenty
characters shows none of itself, a longer one its last four at most."""

from __future__ import annotations

import pytest

from leadctl.config.credentials import Credential, CredentialKind
from leadctl.util.masking import SECRET_MASK, mask_secret, secret_tail


@pytest.mark.parametrize(
    ("value", "tail"), [("a" * 15 + "wxyz", ""), ("a" * 16 + "wxyz", "wxyz"), ("", "")]
)
def test_secret_tail_shows_four_characters_of_long_values_only(value: str, tail: str) -> None:
    assert secret_tail(value) == tail


def test_cells_and_credential_previews_draw_the_line_at_the_same_length() -> None:
    short, long = "sk_" + "x" * 15 + "9", "sk_" + "x" * 16 + "9"
    assert mask_secret(short) == "sk_" + SECRET_MASK
    assert Credential(short, CredentialKind.ORG, "test").preview() == "…"
    assert mask_secret(long) == "sk_…xxx9"
    assert Credential(long, CredentialKind.ORG, "test").preview() == "sk_…xxx9"


def test_a_random_word_before_an_underscore_is_not_shown_as_a_kind() -> None:
    assert mask_secret("aB3_xyzsecretsecretsecret") == "…cret"
    assert mask_secret("src_abc") == "src_" + SECRET_MASK
