"""What ``leadctl profile set KEY VALUE`` stores: each key's parser, which says why a value
is refused. (Reading the file checks only the shape of what it holds: config/settings.py.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from leadctl.config.rate_limit import parse_rate_limit
from leadctl.config.request_limits import timeout_problem
from leadctl.config.settings import INTERNAL_KEYS, PROFILE_KEYS, REGION_PATTERN
from leadctl.config.urls import validate_base_url
from leadctl.errors import UsageError
from leadctl.formats import OUTPUT_FORMATS
from leadctl.util.zones import iana_zone

HEADER_NAME_PATTERN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110 token
QUERY_NAME_PATTERN = re.compile(r"[A-Za-z0-9_.~\[\]-]{1,64}")
OPERATION_ID_PATTERN = re.compile(r"[A-Za-z0-9_.\-]{1,128}")


def _bad_value(key: str, raw: str, why: str) -> UsageError:
    return UsageError(f"invalid value {raw!r} for {key}: {why}")


def _parse_base_url(raw: str) -> str:
    # The plain-http rule depends on a flag of the invocation, so it is checked where the
    # URL is used; here only the shape, which is the same check with that rule switched off.
    return validate_base_url(raw, allow_insecure_http=True)


def _parse_output(raw: str) -> str:
    value = raw.strip().lower()
    if value not in OUTPUT_FORMATS:
        raise _bad_value("output", raw, "expected one of " + ", ".join(OUTPUT_FORMATS))
    return value


def _parse_timeout(raw: str) -> int | float:
    text = raw.strip()
    try:
        number: int | float = int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            raise _bad_value("timeout", raw, "expected a number of seconds") from None

    if timeout_problem(number):
        raise _bad_value("timeout", raw, "expected a positive number of seconds, at most a day")
    return number


def _parse_region(raw: str) -> str:
    value = raw.strip().upper()
    if REGION_PATTERN.fullmatch(value):
        import phonenumbers

        if value in phonenumbers.SUPPORTED_REGIONS:
            return value
    raise _bad_value("region", raw, "expected a two-letter ISO region code such as US or GB")


def _parse_ca_bundle(raw: str) -> str:
    path = Path(raw.strip()).expanduser()
    if not path.is_file():
        raise _bad_value("ca_bundle", raw, "no such file")
    # Absolute, so the profile works from any working directory.
    return str(path.resolve())


def _parse_timezone(raw: str) -> str:
    value = raw.strip()
    if iana_zone(value) is None:
        raise _bad_value("timezone", raw, "not an IANA time zone such as Europe/Berlin")
    return value


def _parse_header_name(raw: str) -> str:
    value = raw.strip()
    if not HEADER_NAME_PATTERN.fullmatch(value):
        raise _bad_value("source_key_header", raw, "not a valid HTTP header name")
    return value


def _query_name_parser(key: str) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        value = raw.strip()
        if not QUERY_NAME_PATTERN.fullmatch(value):
            raise _bad_value(
                key, raw, "expected a query parameter name (letters, digits, _ . ~ - [ ])"
            )
        return value

    return parse


def _parse_operation_ids(key: str, raw: str) -> str:
    ids = [part.strip() for part in raw.split(",") if part.strip()]
    if not ids or not all(OPERATION_ID_PATTERN.fullmatch(i) for i in ids):
        raise _bad_value(key, raw, "expected operationIds separated by commas")
    return ",".join(ids)


def _parse_oauth_word(key: str, raw: str) -> str:
    value = raw.strip()
    if not value or not value.isascii() or not value.isprintable() or " " in value:
        raise _bad_value(key, raw, "expected one word of printable ASCII")
    return value


def _parse_rate_limit(raw: str) -> str:
    return str(parse_rate_limit(raw, what="rate_limit"))


def _parse_oauth_scopes(raw: str) -> str:
    scopes = raw.replace(",", " ").split()
    if not scopes or not all(s.isascii() and s.isprintable() for s in scopes):
        raise _bad_value("oauth_scopes", raw, "expected scopes separated by spaces")
    return " ".join(scopes)


_PARSERS: dict[str, Callable[[str], Any]] = {
    "base_url": _parse_base_url,
    "output": _parse_output,
    "timeout": _parse_timeout,
    "region": _parse_region,
    "timezone": _parse_timezone,
    "ca_bundle": _parse_ca_bundle,
    "source_key_header": _parse_header_name,
    "phone_status_window_days_param": _query_name_parser("phone_status_window_days_param"),
    "phone_status_start_param": _query_name_parser("phone_status_start_param"),
    "phone_status_end_param": _query_name_parser("phone_status_end_param"),
    "order_direction_key": _query_name_parser("order_direction_key"),
    "contract_url": _parse_base_url,
    "retry_safe_operations": lambda raw: _parse_operation_ids("retry_safe_operations", raw),
    "retry_unsafe_operations": lambda raw: _parse_operation_ids("retry_unsafe_operations", raw),
    "oauth_client_id": lambda raw: _parse_oauth_word("oauth_client_id", raw),
    "oauth_scopes": lambda raw: _parse_oauth_scopes(raw),
    "rate_limit": _parse_rate_limit,
}


def parse_profile_value(key: str, raw: str) -> Any:
    """The value to store for ``profile set KEY RAW``; UsageError on an unknown key or value."""
    if key in INTERNAL_KEYS:
        raise UsageError(f"{key} is set by `leadctl auth login`, not by `profile set`")
    parser = _PARSERS.get(key)
    if parser is None:
        raise UsageError(f"unknown profile key {key!r}", hint="keys: " + ", ".join(PROFILE_KEYS))
    return parser(raw)
