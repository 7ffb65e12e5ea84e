"""Fixtures of the installed leadctl against a loopback server that answers exactly the
bytes a test chose (tests/support/hostile_server.py); a pytest plugin, registered in
tests/conftest.py.

``hostile`` is a server of the test's own and ``hostile_env`` an environment pointing
leadctl at it with an organization key. A request the test did not queue an answer for
fails the test, as an unexpected request does with pytest-httpx.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.hostile_server import HostileServer

ORG_KEY = "sk_test_hostile0123456789abcdef"


class HiddenKeyEnv(dict[str, str]):
    """pytest prints a failing test's arguments: never the key."""

    def __repr__(self) -> str:
        return f"HiddenKeyEnv(<{len(self)} variables>)"


@pytest.fixture
def hostile() -> Iterator[HostileServer]:
    with HostileServer() as server:
        yield server
        assert server.unanswered == [], "leadctl sent requests no answer was queued for"


@pytest.fixture
def hostile_env(hostile: HostileServer) -> HiddenKeyEnv:
    return HiddenKeyEnv(
        LEADCTL_BASE_URL=hostile.base_url, LEADCTL_TOKEN=ORG_KEY, NO_COLOR="1", LEADCTL_PAGER="cat"
    )
