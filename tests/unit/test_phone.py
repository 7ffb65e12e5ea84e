"""E.164 normalisation: what people type becomes the form the service takes, or a usage
error that names the input before anything is sent."""

from __future__ import annotations

import pytest

from leadctl.errors import UsageError
from leadctl.inputs.phone import check_region, to_e164


@pytest.mark.parametrize(
    ("typed", "region", "e164"),
    [
        ("+14155550123", None, "+14155550123"),
        ("+1 (415) 555-0123", None, "+14155550123"),
        ("+1.415.555.0123", None, "+14155550123"),
        ("  +1 415 555 0123  ", None, "+14155550123"),
        ("tel:+1-415-555-0123", None, "+14155550123"),
        ("+44 20 7946 0018", None, "+442079460018"),
        ("+49 30 901820", None, "+4930901820"),
        # a + number ignores the region: it already says its country
        ("+44 20 7946 0018", "US", "+442079460018"),
        ("(415) 555-0123", "US", "+14155550123"),
        ("415.555.0123", "US", "+14155550123"),
        ("1 415 555 0123", "US", "+14155550123"),
        ("011 44 20 7946 0018", "US", "+442079460018"),  # US international dialling prefix
        ("020 7946 0018", "GB", "+442079460018"),
        ("00 1 415 555 0123", "GB", "+14155550123"),
        ("030 901820", "DE", "+4930901820"),
        ("415 555 0123", "us", "+14155550123"),  # a hand-edited lowercase region
        ("1-800-FLOWERS", "US", "+18003569377"),  # letters on a keypad
    ],
)
def test_normalises_to_e164(typed: str, region: str | None, e164: str) -> None:
    assert to_e164(typed, region=region) == e164


def test_national_format_without_region_is_refused_with_the_way_out() -> None:
    with pytest.raises(UsageError) as caught:
        to_e164("(415) 555-0123", region=None)
    assert "'(415) 555-0123'" in caught.value.message
    assert "national format" in caught.value.message
    assert caught.value.hint is not None
    assert "+E.164" in caught.value.hint
    assert "leadctl profile set region US" in caught.value.hint


@pytest.mark.parametrize(
    ("typed", "region", "words"),
    [
        ("+1415555012", None, "not a valid phone number"),  # one digit short
        ("+1 415 555 01234", None, "not a valid phone number"),  # one digit long
        ("+999 123 4567", None, "unknown country code"),
        ("hello", "US", "not a phone number"),
        ("+", None, "not a phone number"),
        ("555 0123", "US", "in US (the profile's region)"),
        ("+1 415 555 0123 ext. 12", None, "extension"),
        ("+1 415 555 0123;ext=9", None, "extension"),
        ("1" * 300, "US", "not a phone number"),
    ],
)
def test_bad_numbers_name_the_input(typed: str, region: str | None, words: str) -> None:
    with pytest.raises(UsageError) as caught:
        to_e164(typed, region=region)
    assert words in caught.value.message
    assert repr(typed[:40])[:-1] in caught.value.message  # the input, clipped when huge


def test_empty_input() -> None:
    with pytest.raises(UsageError, match="must not be empty"):
        to_e164("  ", region="US")


def test_the_name_of_the_input_is_the_callers() -> None:
    with pytest.raises(UsageError, match=r"^--to 'x'"):
        to_e164("x", region="US", what="--to")


def test_a_huge_input_is_clipped_in_the_message() -> None:
    with pytest.raises(UsageError) as caught:
        to_e164("9" * 500, region="US")
    assert len(caught.value.message) < 120


@pytest.mark.parametrize(("raw", "code"), [(None, None), ("", None), ("us", "US"), (" GB ", "GB")])
def test_check_region(raw: object, code: str | None) -> None:
    assert check_region(raw) == code


@pytest.mark.parametrize("raw", ["XX", "USA", "1", 42])
def test_check_region_refuses_unknown_codes(raw: object) -> None:
    with pytest.raises(UsageError, match="region"):
        check_region(raw)


def test_a_bad_region_does_not_block_international_input() -> None:
    assert to_e164("+14155550123", region="XX") == "+14155550123"
    with pytest.raises(UsageError, match="'XX'"):
        to_e164("415 555 0123", region="XX")
