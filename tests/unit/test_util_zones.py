"""IANA zone names, looked up once for the profile setting, its use and TZ."""

from __future__ import annotations

import pytest

from leadctl.util.zones import iana_zone


def test_a_known_name_is_its_zone() -> None:
    zone = iana_zone("Europe/Berlin")
    assert zone is not None
    assert getattr(zone, "key", None) == "Europe/Berlin"


@pytest.mark.parametrize("name", ["Mars/Olympus_Mons", "", "../etc/passwd", "/etc/localtime"])
def test_anything_else_is_none_rather_than_an_exception(name: str) -> None:
    assert iana_zone(name) is None
