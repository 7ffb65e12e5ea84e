"""Standard Webhooks signatures, made by the ``standardwebhooks`` library (never by hand here).

The library is imported when a signature is made, not when the command tree loads. Its own
``verify`` is not used: it reads the wall clock with a fixed 5-minute tolerance and fails with
a bare exception on a malformed header, where leadctl needs ``--tolerance``, an injected clock
and a reason it can name (see verification.py). The comparison there is the same constant-time
``hmac.compare_digest`` the library's ``verify`` uses.
"""

from __future__ import annotations

from datetime import datetime, timezone

from leadctl.webhooks.secret import WebhookSecret

SIGNATURE_VERSION = "v1"


class BodyNotText(ValueError):
    """The body is not UTF-8: Standard Webhooks payloads are JSON text, and the library signs
    text."""


def signature(secret: WebhookSecret, *, msg_id: str, timestamp: int, body: bytes) -> str:
    """``v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`` for these exact bytes."""
    from standardwebhooks.webhooks import Webhook

    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyNotText("the body is not UTF-8 text") from None
    moment = datetime.fromtimestamp(timestamp, timezone.utc)
    signed: str = Webhook(secret.text).sign(msg_id=msg_id, timestamp=moment, data=text)
    return signed
