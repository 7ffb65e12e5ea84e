"""Time zones named the IANA way (``Europe/Berlin``), looked up once for every caller."""

from __future__ import annotations

from datetime import tzinfo


def iana_zone(name: str) -> tzinfo | None:
    """The IANA zone ``name``, or None when there is no such zone (or no such name)."""
    # zoneinfo loads only when a zone is really named: most commands never need one.
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
