"""``--since`` for a read whose window is a number of days (issue 34 point 3): whole days
from then to now, at least one; a start after now is exit 2."""

from __future__ import annotations

import pytest

from leadctl.contract.entries import Parameter
from leadctl.errors import UsageError
from leadctl.generated.window import window_of, with_since
from tests.support.run_context import direct_context

DAYS = Parameter("windowDays", "query", required=False, type="integer", flag="--window-days")
BINDINGS = [("param_0", DAYS)]


@pytest.mark.parametrize(
    ("since", "days"), [("-7d", 7), ("-36h", 2), ("-1m", 1), ("last monday", 6)]
)
def test_since_becomes_whole_days_to_now(since: str, days: int) -> None:
    ctx = direct_context(env={"TZ": "UTC"})  # the test clock: Saturday 2026-11-21 12:00 UTC
    window = window_of([DAYS])
    assert window is not None

    values = with_since(ctx, window, {"param_0": None, "since": since}, BINDINGS)

    assert values == {"param_0": days}


def test_a_start_in_the_future_is_a_usage_error() -> None:
    ctx = direct_context(env={"TZ": "UTC"})
    window = window_of([DAYS])
    assert window is not None

    with pytest.raises(UsageError, match="not in the past"):
        with_since(ctx, window, {"since": "+2d"}, BINDINGS)


def test_a_read_without_a_window_has_no_since() -> None:
    other = Parameter("status", "query", required=False, flag="--status")
    assert window_of([other]) is None
