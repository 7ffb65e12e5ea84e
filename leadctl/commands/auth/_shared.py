"""What several ``leadctl auth`` verbs share."""

from __future__ import annotations


def timestamp(seconds: float | None) -> str | None:
    """An expiry (epoch seconds) as ISO 8601 UTC, to the second."""
    if seconds is None:
        return None
    from datetime import datetime, timezone

    moment = datetime.fromtimestamp(seconds, timezone.utc).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")
