"""Checking one delivery: its three headers, its timestamp against a tolerance, its signature.

Every header value here came from whoever sent the request: it is parsed strictly and a
failure names which check failed, never crashes. The order is the receiver's recommended
one: headers present, timestamp fresh, then the signature (so a replayed old delivery is
"stale" whatever its signature).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import re
from collections.abc import Iterable
from dataclasses import dataclass

from leadctl.errors import ExitCode, LeadctlError
from leadctl.util.durations import describe_seconds
from leadctl.webhooks.secret import WebhookSecret
from leadctl.webhooks.signing import SIGNATURE_VERSION, BodyNotText, signature

ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"
REQUIRED_HEADERS = (ID_HEADER, TIMESTAMP_HEADER, SIGNATURE_HEADER)
DEFAULT_TOLERANCE = 300.0
# Unix seconds as senders write them: digits, no sign, no fraction, no leading zero. The
# signed text carries the header as sent, so a "01700000000" could never match anyway.
_TIMESTAMP = re.compile(r"0|[1-9][0-9]{0,11}")
# One header line of signatures, not a flood to decode.
_MAX_SIGNATURES = 32

# Why a delivery is refused; the receiver's answer follows from it (listen).
MISSING_HEADER = "missing header"
MALFORMED_HEADER = "malformed header"
STALE = "timestamp outside tolerance"
BAD_SIGNATURE = "bad signature"
NOT_TEXT = "body not UTF-8"


class WebhookInvalid(LeadctlError):
    """The delivery is not genuine or not fresh (exit 6, as a request the service rejected)."""

    exit_code = ExitCode.REJECTED

    def __init__(self, reason: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(f"{reason}: {message}", hint=hint)
        self.reason = reason


@dataclass(frozen=True)
class Verified:
    msg_id: str
    timestamp: int
    # Seconds between the timestamp and the verifier's clock (positive: in the past).
    age: float
    # 1-based position of the matching entry in webhook-signature.
    matched: int
    signatures: int


def header_value(headers: Iterable[tuple[str, str]], name: str) -> str | None:
    """The one value of ``name`` (any case); MALFORMED_HEADER when given twice, since two
    values could be read differently by two receivers."""
    found = [value for key, value in headers if key.strip().lower() == name]
    if len(found) > 1:
        raise WebhookInvalid(MALFORMED_HEADER, f"{name} is given {len(found)} times")
    return found[0].strip() if found else None


def verify_delivery(
    secret: WebhookSecret,
    headers: Iterable[tuple[str, str]],
    body: bytes,
    *,
    now: float,
    tolerance: float,
) -> Verified:
    """The delivery's facts when it is genuine and fresh; WebhookInvalid naming why not."""
    pairs = list(headers)
    values = {name: header_value(pairs, name) for name in REQUIRED_HEADERS}
    missing = [name for name, value in values.items() if not value]
    if missing:
        raise WebhookInvalid(MISSING_HEADER, ", ".join(missing))
    msg_id, raw_timestamp, raw_signatures = (values[name] or "" for name in REQUIRED_HEADERS)
    if not _TIMESTAMP.fullmatch(raw_timestamp):
        raise WebhookInvalid(
            MALFORMED_HEADER, f"{TIMESTAMP_HEADER} is not Unix seconds (digits only)"
        )
    timestamp = int(raw_timestamp)
    age = now - timestamp
    if abs(age) > tolerance:
        direction = "ago" if age > 0 else "in the future"
        raise WebhookInvalid(
            STALE,
            f"signed {describe_seconds(age)} {direction}, tolerance is "
            f"{describe_seconds(tolerance)}",
            hint="a replayed or delayed delivery; check the clocks, or widen --tolerance",
        )
    given = raw_signatures.split()
    if len(given) > _MAX_SIGNATURES:
        raise WebhookInvalid(MALFORMED_HEADER, f"{SIGNATURE_HEADER} has {len(given)} entries")
    try:
        expected = _decoded(signature(secret, msg_id=msg_id, timestamp=timestamp, body=body))
    except BodyNotText:
        raise WebhookInvalid(
            NOT_TEXT, "the body is not UTF-8 text, which Standard Webhooks payloads are"
        ) from None
    for position, entry in enumerate(given, start=1):
        version, _comma, encoded = entry.partition(",")
        if version != SIGNATURE_VERSION:
            continue  # another scheme (v1a, a future version): not ours to judge
        candidate = _decoded_or_none(encoded)
        if candidate is not None and hmac.compare_digest(expected, candidate):
            return Verified(msg_id, timestamp, age, position, len(given))
    versions = sorted({entry.partition(",")[0] for entry in given} - {SIGNATURE_VERSION})
    other = f" (also {', '.join(versions)} entries, not checked)" if versions else ""
    raise WebhookInvalid(
        BAD_SIGNATURE,
        f"none of the {len(given)} entries of {SIGNATURE_HEADER} matches{other}",
        hint="a wrong secret, or the body or headers were changed on the way",
    )


def _decoded(versioned: str) -> bytes:
    return base64.b64decode(versioned.partition(",")[2])


def _decoded_or_none(encoded: str) -> bytes | None:
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        return None
