"""``leads import`` fed fuzzed CSV and NDJSON files.

Per example: never a traceback nor an "unexpected" error. A file leadctl cannot import
at all (no usable CSV header) is exit 2 with nothing sent. Otherwise every data row gets
exactly one report line: ``created`` (sent once; the stub service accepts everything) or
``invalid`` (never sent, with the reason); the exit code is 6 when any row was invalid and
0 otherwise; and the requests sent are exactly the created rows.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pytest_httpx import HTTPXMock

from tests.fuzz.strategies import FUZZ, json_values, phone_numbers
from tests.support.cli import run_cli, token_env

COLUMNS = ["firstName", "lastName", "phone", "email", "state", "tags[]", "address.city", "a.b"]


def created(request: httpx.Request) -> httpx.Response:
    return httpx.Response(202, json={"id": "lead_1", "processingStatus": "Pending"})


@pytest.fixture
def service(httpx_mock: HTTPXMock) -> HTTPXMock:
    httpx_mock.add_callback(created, is_reusable=True, is_optional=True)
    return httpx_mock


cells = st.one_of(
    st.text(max_size=12),
    phone_numbers,
    st.text(alphabet='",\n\r\\ ', max_size=4),
    st.sampled_from(["", " ", '"', '""', "a,b", "\ufeff"]),
)


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    header = draw(
        st.lists(
            st.one_of(st.sampled_from(COLUMNS), st.text(alphabet=string.printable, max_size=8)),
            max_size=5,
        )
    )
    rows = draw(st.lists(st.lists(cells, max_size=6), max_size=5))
    lines = [",".join(header)] + [",".join(row) for row in rows]
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))
    raw = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        raw = raw.replace(b"a", b"\xff")  # not UTF-8
    return raw


@st.composite
def ndjson_files(draw: st.DrawFn) -> bytes:
    lines = draw(
        st.lists(
            st.one_of(
                json_values.map(json.dumps),
                st.fixed_dictionaries(
                    {"firstName": st.text(max_size=8)},
                    optional={"phone": st.one_of(phone_numbers, st.integers()), "x": json_values},
                ).map(json.dumps),
                st.text(max_size=20),
            ),
            min_size=1,
            max_size=5,
        )
    )
    return ("\n".join(lines) + "\n").encode("utf-8")


def check(service: HTTPXMock, tmp_path: Path, content: bytes, suffix: str) -> None:
    source = tmp_path / f"leads{suffix}"
    source.write_bytes(content)
    before = len(service.get_requests())
    result = run_cli(
        ["leads", "import", str(source), "--report", "-", "--concurrency", "1"],
        env={**token_env(), "LEADCTL_CONFIG_DIR": str(tmp_path / "config")},
    )
    sent = service.get_requests()[before:]
    assert "Traceback" not in result.stderr
    assert "unexpected" not in result.stderr, result.stderr
    assert result.exit_code in (0, 2, 6), result.stderr
    if result.exit_code == 2:
        assert sent == []
        assert result.stderr.startswith("error: ")
        # The file, its header, or a column the lead does not have (a typo, issue 21.6).
        named = (str(source), "header", "is not a field of the active contract's lead")
        assert any(reason in result.stderr for reason in named), result.stderr
        return
    report = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["row"] for line in report] == sorted({line["row"] for line in report})
    outcomes = {line["outcome"] for line in report}
    assert outcomes <= {"created", "invalid"}
    invalid = [line for line in report if line["outcome"] == "invalid"]
    assert all(line["error"] and line["error"].get("detail") for line in invalid)
    assert len(sent) == len(report) - len(invalid)
    assert result.exit_code == (6 if invalid else 0)
    assert all(isinstance(json.loads(request.content), dict) for request in sent)


@FUZZ
@given(content=csv_files())
def test_csv_imports(service: HTTPXMock, tmp_path: Path, content: bytes) -> None:
    check(service, tmp_path, content, ".csv")


@FUZZ
@given(content=ndjson_files())
def test_ndjson_imports(service: HTTPXMock, tmp_path: Path, content: bytes) -> None:
    check(service, tmp_path, content, ".ndjson")
