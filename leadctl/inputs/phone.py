"""Phone numbers as the service wants them: E.164, checked before anything is sent.

phonenumbers is imported inside the functions: importing the command tree must stay cheap.
"""

from __future__ import annotations

from leadctl.errors import UsageError

# Long enough to recognise what was typed, short enough for one error line.
_SHOWN_INPUT_LIMIT = 40
REGION_HINT = (
    "give the number as +E.164 (e.g. +14155550123), or set a default region for "
    "national numbers with `leadctl profile set region US`"
)


def _shown(raw: str) -> str:
    text = raw if len(raw) <= _SHOWN_INPUT_LIMIT else raw[:_SHOWN_INPUT_LIMIT] + "…"
    return repr(text)


def _looks_international(text: str) -> bool:
    # A "tel:" URI is how numbers are copied out of browsers and address books.
    bare = text[4:] if text.lower().startswith("tel:") else text
    return bare.lstrip().startswith("+")


def check_region(region: object) -> str | None:
    """The profile's default region as phonenumbers spells it, or None when unset."""
    if region is None or region == "":
        return None
    import phonenumbers

    code = str(region).strip().upper()
    if code not in phonenumbers.SUPPORTED_REGIONS:
        raise UsageError(
            f"the profile's region {region!r} is not a region phonenumbers knows",
            hint="set a two-letter code such as US or GB with `leadctl profile set region US`",
        )
    return code


def to_e164(raw: str, *, region: object, what: str = "NUMBER") -> str:
    """``raw`` as an E.164 string (``+14155550123``), or a UsageError naming the input.

    ``region`` is the profile's default region as stored (validated here, and only when
    it is needed). A national number (no leading ``+``) needs it; without one it is refused
    rather than guessed, since the same digits are different numbers in different
    countries. An extension is refused: E.164 has none and dropping it silently would
    address a different line than the user meant.
    """
    import phonenumbers

    text = raw.strip()
    if not text:
        raise UsageError(f"{what} must not be empty", hint=REGION_HINT)
    international = _looks_international(text)
    if not international and not _has_phone_digits(text):
        # Text with no number in it ("hello", "n/a"): no region would make it one.
        raise UsageError(
            f"{what} {_shown(raw)} is not a phone number",
            hint="give the number as +E.164 (e.g. +14155550123) or in national format",
        )
    # Only a national number needs the region: a broken profile value must not block +E.164.
    default_region = None if international else check_region(region)
    if not international and default_region is None:
        raise UsageError(
            f"{what} {_shown(raw)} is in national format and no region is set",
            hint=REGION_HINT,
        )
    try:
        parsed = phonenumbers.parse(text, default_region)
    except phonenumbers.NumberParseException as error:
        raise UsageError(
            f"{what} {_shown(raw)} is not a phone number ({_reason(error)})",
            hint=REGION_HINT,
        ) from None
    if parsed.extension:
        raise UsageError(
            f"{what} {_shown(raw)} has an extension ({parsed.extension}); E.164 numbers have none",
            hint="give the number without the extension",
        )
    if not phonenumbers.is_valid_number(parsed):
        where = phonenumbers.region_code_for_number(parsed)
        place = f" in {where}" if where and where != "ZZ" else ""
        if default_region is not None:
            place = f" in {default_region} (the profile's region)"
        raise UsageError(
            f"{what} {_shown(raw)} is not a valid phone number{place}",
            hint="check the digits; international numbers start with + and the country code",
        )
    return str(phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164))


def _has_phone_digits(text: str) -> bool:
    """Whether phonenumbers sees a possible number in ``text`` (its own test, run before
    it looks at the country: letters of a vanity number count, words do not)."""
    import phonenumbers

    try:
        phonenumbers.parse(text, None)
    except phonenumbers.NumberParseException as error:
        return error.error_type != phonenumbers.NumberParseException.NOT_A_NUMBER
    return True


def _reason(error: Exception) -> str:
    import phonenumbers

    reasons = {
        phonenumbers.NumberParseException.INVALID_COUNTRY_CODE: "unknown country code",
        phonenumbers.NumberParseException.NOT_A_NUMBER: "no digits of a phone number",
        phonenumbers.NumberParseException.TOO_SHORT_AFTER_IDD: "too short",
        phonenumbers.NumberParseException.TOO_SHORT_NSN: "too short",
        phonenumbers.NumberParseException.TOO_LONG: "too long",
    }
    kind = getattr(error, "error_type", None)
    return reasons.get(kind, "cannot be parsed") if isinstance(kind, int) else "cannot be parsed"
