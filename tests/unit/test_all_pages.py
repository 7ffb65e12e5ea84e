"""``--all``: the largest page the service honours, and a progress line that keeps the
terminal clean (retry notes on their own line, erased at the end, after a closed pipe)."""

from __future__ import annotations

import io
import json
import os
import re
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from leadctl.cli.app import invoke
from leadctl.iostreams import IOStreams
from leadctl.output.progress import ProgressLine
from tests.support.cli import BASE_URL, FakeClock, token_env

LIST_URL = f"{BASE_URL}/leads/all/my"


def lead(n: int) -> dict[str, Any]:
    return {"id": f"lead_{n}", "phone": f"+1512555{n:04d}"}


def run_all(
    args: list[str], *, stdout: io.StringIO | None = None, stderr_tty: bool = True
) -> tuple[int, str, str]:
    merged = {**os.environ, **token_env()}
    ios = IOStreams.for_test(stdout_tty=False, stderr_tty=stderr_tty, env=merged)
    if stdout is not None:
        ios.stdout = stdout
    code = invoke(["leads", "list", "--all", *args], ios=ios, env=merged, clock=FakeClock())
    return code, ios.stdout.getvalue(), ios.stderr.getvalue()  # type: ignore[attr-defined]


def visible(stderr: str) -> list[str]:
    """What a terminal shows after ``stderr``: \\r returns to the line start and ESC [K
    erases to its end."""
    shown = []
    for raw in stderr.split("\n"):
        line, cursor = "", 0
        for part in re.split(r"(\r|\x1b\[K)", raw):
            if part == "\r":
                cursor = 0
            elif part == "\x1b[K":
                line = line[:cursor]
            elif part:
                line = line[:cursor] + part + line[cursor + len(part) :]
                cursor += len(part)
        if line:
            shown.append(line)
    return shown


def test_all_asks_for_200_on_every_page_whatever_the_service_answered(
    httpx_mock: HTTPXMock,
) -> None:
    """A service may bind its token to the query: the next page repeats the first body,
    pageSize included, even when the answer names a smaller page."""
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"pageSize": 200},
        json={"items": [lead(1)], "pageSize": 100, "continuationToken": "t1"},
    )
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"pageSize": 200, "continuationToken": "t1"},
        json={"items": [lead(2)], "pageSize": 100},
    )
    code, out, _ = run_all(["-o", "ndjson"], stderr_tty=False)
    assert code == 0
    assert [json.loads(line)["id"] for line in out.splitlines()] == ["lead_1", "lead_2"]


@pytest.mark.parametrize(
    ("args", "asked"),
    [
        (["--limit", "1"], 1),
        (["--limit", "30"], 30),
        (["--limit", "1000"], 200),
        (["--limit", "10", "--page-size", "50"], 10),
        (["--limit", "100", "--page-size", "50"], 50),
    ],
)
def test_limit_asks_for_at_most_n_a_page(
    httpx_mock: HTTPXMock, args: list[str], asked: int
) -> None:
    httpx_mock.add_response(
        method="POST", url=LIST_URL, match_json={"pageSize": asked}, json={"items": [lead(1)]}
    )
    merged = {**os.environ, **token_env()}
    ios = IOStreams.for_test(env=merged)
    code = invoke(["leads", "list", *args, "-o", "json"], ios=ios, env=merged, clock=FakeClock())
    assert code == 0, ios.stderr.getvalue()  # type: ignore[attr-defined]


def test_all_with_limit_stops_after_n_items(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"pageSize": 3},
        json={"items": [lead(1), lead(2), lead(3)], "continuationToken": "t1"},
    )
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"pageSize": 3, "continuationToken": "t1"},
        json={"items": [lead(4), lead(5), lead(6)], "continuationToken": "t2"},
    )
    code, out, _ = run_all(["--limit", "5", "--page-size", "3", "--jq", ".id"], stderr_tty=False)
    assert code == 0
    assert out.split() == ["lead_1", "lead_2", "lead_3", "lead_4", "lead_5"]


def test_an_explicit_page_size_is_kept(httpx_mock: HTTPXMock) -> None:
    for body, answer in (
        ({"pageSize": 50}, {"items": [lead(1)], "pageSize": 25, "continuationToken": "t1"}),
        ({"pageSize": 50, "continuationToken": "t1"}, {"items": [lead(2)], "pageSize": 25}),
    ):
        httpx_mock.add_response(method="POST", url=LIST_URL, match_json=body, json=answer)
    code, _, _ = run_all(["--page-size", "50", "-o", "ndjson"], stderr_tty=False)
    assert code == 0


def test_retry_notes_get_their_own_line_and_the_progress_is_erased(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [lead(1), lead(2)], "continuationToken": "t1"}
    )
    httpx_mock.add_response(method="POST", url=LIST_URL, status_code=503)
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [lead(3)]})

    code, out, err = run_all(["-o", "ndjson"])

    assert code == 0
    assert len(out.splitlines()) == 3
    assert re.search(r"\d+ items, \d+ pages, 0:00", err), err  # the progress was drawn
    # The retry note starts on a line of its own: the progress line was erased first.
    assert re.search(r"\r\x1b\[Kretrying in \S+: 503", err), err
    # When it is all over, only the retry note is left on the terminal.
    assert err.endswith("\r\x1b[K")
    assert len(visible(err)) == 1 and visible(err)[0].startswith("retrying in "), visible(err)


class ClosedPipe(io.StringIO):
    """stdout of `leadctl ... | head -1`: the reader left after the first line."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise BrokenPipeError
        return super().write(text.split("\n", 1)[0] + "\n")


def test_a_closed_pipe_leaves_no_progress_behind(httpx_mock: HTTPXMock) -> None:
    # One page: whether a next page would be fetched ahead before the pipe closes is a race.
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [lead(n) for n in range(50)]}
    )

    code, _, err = run_all(["-o", "ndjson"], stdout=ClosedPipe())

    assert code == 0
    assert "items, " in err  # there was a progress line...
    assert visible(err) == []  # ...and nothing is left of it


def test_quiet_shows_no_progress(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [lead(1)]})
    code, _, err = run_all(["-q", "-o", "ndjson"])
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("elapsed", "items", "pages", "text"),
    [
        (0.4, 0, 0, "0 items, 0 pages, 0:00"),
        (0.9, 1, 1, "1 item, 1 page, 0:00"),
        (2.0, 500, 3, "500 items, 3 pages, 250 items/s, 0:02"),
        (125.0, 100_000, 500, "100,000 items, 500 pages, 800 items/s, 2:05"),
        (3725.0, 7_450, 38, "7,450 items, 38 pages, 2 items/s, 1:02:05"),
    ],
)
def test_progress_says_count_pages_rate_and_elapsed_time(
    elapsed: float, items: int, pages: int, text: str
) -> None:
    now = [100.0]
    line = ProgressLine(io.StringIO(), clock=lambda: now[0])
    now[0] += elapsed
    assert line.text(items, pages) == text


def test_a_table_on_the_same_terminal_starts_on_a_clean_line(httpx_mock: HTTPXMock) -> None:
    """stdout and stderr are one terminal: the progress is gone before the table is drawn."""
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [lead(1)], "continuationToken": "t1"}
    )
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [lead(2)]})
    merged = {**os.environ, **token_env(), "COLUMNS": "100", "LEADCTL_PAGER": "cat"}
    ios = IOStreams.for_test(tty=True, env={**merged, "NO_COLOR": "1"})
    ios.stderr = ios.stdout  # one terminal
    args = ["leads", "list", "--all", "--columns", "id,phone"]
    assert invoke(args, ios=ios, env=merged, clock=FakeClock()) == 0
    screen = visible(ios.stdout.getvalue())  # type: ignore[attr-defined]
    assert screen[0].split() == ["id", "phone"]
    assert [line.split()[0] for line in screen[1:]] == ["lead_1", "lead_2"]
