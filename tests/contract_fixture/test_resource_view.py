"""One resource on a terminal shows every list of its answer (issue 34), through the command
line against the validating mock of the trait contract, whose ``GET /analytics`` answers
an object with nested lists and time series (tests/fixtures/contracts/traits/org_analytics.py).

- Every list the response schema has appears under its own title, on an 80-column
  terminal, no line wider than the terminal.
- A series is drawn: a sparkline per numeric field, with its minimum, maximum and last
  value; plain characters without color, tinted with it.
- A list longer than a screenful is cut with a line saying how many more and how to see
  them; a value too long for its line is cut with an ellipsis and named.
- Piped, ``-o json``, csv and ``--columns`` print what they printed before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len

from leadctl.output.sparkline import SPARK_BLOCKS
from tests.fixtures.contracts.traits.org_analytics import EXAMPLE_ANSWER, LEADS_PER_DAY
from tests.support.cli import Result, run_cli
from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv

pytestmark = pytest.mark.e2e

ANALYTICS = ["analytics", "get-overview"]
TERMINAL = {"COLUMNS": "80", "LINES": "60", "NO_COLOR": "1", "TZ": "UTC", "LEADCTL_PAGER": "cat"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def on_terminal(env: CredentialEnv, *args: str, **extra: str) -> Result:
    result = run_cli([*ANALYTICS, *args], env={**env, **TERMINAL, **extra}, tty=True)
    assert result.exit_code == 0, result.stderr
    return result


def list_paths(mock: ContractMock, node: Any, prefix: str = "") -> Iterator[str]:
    """The path of every list in a schema, outside other lists, as the view titles them."""
    resolved = mock.schemas.resolve(node)
    kind = resolved.get("type")
    if kind == "array" or (isinstance(kind, list) and "array" in kind):
        yield prefix
        return
    for name, sub in (resolved.get("properties") or {}).items():
        yield from list_paths(mock, sub, f"{prefix}.{name}" if prefix else name)


def section(screen: str, title: str) -> list[str]:
    """The lines under the title ``title · N`` up to the next blank line."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{title} · "))
    body: list[str] = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        body.append(line)
    return body


def test_every_list_of_the_schema_appears_under_its_title_at_80_columns(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    schema = trait_mock.response_schema("GET", "/analytics")
    paths = list(list_paths(trait_mock, schema))
    assert len(paths) == 7  # the walk found the fixture's lists

    screen = on_terminal(trait_env).stdout

    titles = [line.split(" · ")[0] for line in screen.splitlines() if " · " in line]
    missing = [path for path in paths if path not in titles]
    assert missing == []
    assert max(cell_len(line) for line in screen.splitlines()) <= 80
    # the lists of objects are tables with their ids whole, the rest named
    assert "3f1c9a52-6d0e-4a47-9a0f-6c2d1b7e8a01" in screen
    sources = section(screen, "leadSources")
    assert sources[0].split()[:2] == ["id", "name"]
    assert any(
        line.startswith("not shown: ") and "--columns leadSources[]." in line for line in sources
    )
    assert trait_mock.violations() == []


def test_a_series_is_a_sparkline_with_its_minimum_maximum_and_last_value(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    screen = on_terminal(trait_env).stdout

    count_line, axis = section(screen, "leadTrend.points")
    name, chart, figures = count_line.split(None, 2)
    assert name == "count"
    assert set(chart) <= set(SPARK_BLOCKS)
    # the lowest day is the lowest block, the highest the full one, in the days' order
    assert chart.index("█") > chart.index(chart[0]) and chart[0] != "█"
    assert chart.rstrip("█")[-1] != "█" and "█" in chart
    assert (
        figures == f"min {min(LEADS_PER_DAY)} · max {max(LEADS_PER_DAY)} · last {LEADS_PER_DAY[-1]}"
    )
    assert axis.split() == ["2026-11-20", "00:00", "UTC", "2026-12-03", "00:00", "UTC"]
    sms, calls, _axis = section(screen, "communicationUsage.trend")
    assert sms.startswith("sms ") and "max 150 · last 142" in sms
    assert calls.startswith("calls ") and "min 5 · max 22 · last 20" in calls


def test_times_are_in_the_users_zone_and_rates_and_money_read_as_such(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    screen = on_terminal(trait_env, TZ="America/Chicago").stdout

    assert "2026-11-19 18:00 CST" in section(screen, "leadTrend.points")[-1]
    fields = dict(line.split(None, 1) for line in screen.split("\n\n")[0].splitlines())
    assert fields["summary.conversionRate"] == "19%"
    assert fields["communicationUsage.spendAmount"] == "412.37 USD"


def test_color_tints_the_chart_only_when_color_is_on(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    plain = on_terminal(trait_env).stdout
    tinted = on_terminal(trait_env, NO_COLOR="", TERM="xterm-256color").stdout

    assert ANSI.search(plain) is None
    assert ANSI.search(tinted) is not None
    assert (
        section(ANSI.sub("", tinted), "leadTrend.points")[0].split()[:2]
        == (section(plain, "leadTrend.points")[0].split()[:2])
    )


def test_a_list_longer_than_a_screenful_is_cut_saying_how_many_more_and_how_to_see_them(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    many = [
        {**EXAMPLE_ANSWER["leadSources"][0], "id": f"3f1c9a52-6d0e-4a47-9a0f-{n:012d}"}
        for n in range(60)
    ]
    long_text = "Day, counted in the organization's own time zone, " * 3
    answer = {**EXAMPLE_ANSWER, "leadSources": many}
    answer["leadTrend"] = {**EXAMPLE_ANSWER["leadTrend"], "interval": long_text}
    trait_mock.reply("GET", "/analytics", body=answer)

    screen = on_terminal(trait_env, LINES="24").stdout

    rows = section(screen, "leadSources")
    shown = [line for line in rows if line.startswith("3f1c9a52")]
    assert 5 <= len(shown) < 24
    assert f"… {60 - len(shown)} more of 60 (all of them: -o json, or --jq '.leadSources')" in rows
    interval = next(line for line in screen.splitlines() if line.startswith("leadTrend.interval"))
    assert interval.endswith("…") and cell_len(interval) <= 80
    assert "cut to fit 80 columns: leadTrend.interval" in screen
    assert max(cell_len(line) for line in screen.splitlines()) <= 80


@pytest.mark.parametrize(
    ("args", "tty"),
    [
        ([], False),  # piped: JSON
        (["-o", "json"], True),
        (["-o", "ndjson"], True),
        (["-o", "csv"], True),
        (["-o", "table"], False),  # a table sent to a file
        (["-o", "table", "--columns", "summary.leads,leadSources[].name"], True),
    ],
)
def test_piped_machine_formats_and_columns_print_no_drawing(
    trait_mock: ContractMock, trait_env: CredentialEnv, args: list[str], tty: bool
) -> None:
    result = run_cli([*ANALYTICS, *args], env={**trait_env, **TERMINAL}, tty=tty)

    assert result.exit_code == 0, result.stderr
    assert not set(result.stdout) & set(SPARK_BLOCKS)
    assert " · " not in result.stdout
    if args in ([], ["-o", "json"]):
        assert json.loads(result.stdout) == EXAMPLE_ANSWER
