"""``leadctl numbers window`` in process.

``leadctl numbers status``: the exact request, input checks before sending, and output."""

from __future__ import annotations

from pytest_httpx import HTTPXMock

from tests.commands.numbers._support import NUMBER, STATUS_URL, stub


def test_run_sends_the_window_and_prints_the_summary_row(httpx_mock: HTTPXMock) -> None:
    # The verb without Typer: Options as the wrapper would fill them, straight into run().
    from leadctl.commands.numbers.status import Options, run
    from tests.support.run_context import direct_context, stdout_of

    stub(httpx_mock, url=f"{STATUS_URL}?windowDays=30&endDate=2026-11-20")
    ctx = direct_context(output="csv", env={"TZ": "UTC"})
    run(Options("+1 (415) 555-0123", window_days=30, end="yesterday"), ctx)
    header, row = stdout_of(ctx).splitlines()
    values = dict(zip(header.split(","), row.split(","), strict=True))
    assert values["number"] == NUMBER
    assert values["outboundCapacity.smsRemainingToday"] == "850"
