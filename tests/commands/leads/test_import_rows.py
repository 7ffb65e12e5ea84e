"""Reading import files: format detection, CSV and NDJSON rows, numbering, digests."""

from __future__ import annotations

import io
import itertools
from typing import Any

import pytest

from leadctl.bulk.rows import Row, format_for, head_lines, read_rows
from leadctl.errors import UsageError


def rows_of(data: bytes, fmt: str | None = None) -> list[Row]:
    stream = io.BytesIO(data)
    head = head_lines(stream)
    chosen = fmt or format_for(None, head[-1] if head else b"")
    lines = itertools.chain(head, stream)
    return list(read_rows(lines, chosen, prepare=lambda body: body, source="leads"))


def bodies(rows: list[Row]) -> list[Any]:
    return [row.body if row.valid else row.problem for row in rows]


@pytest.mark.parametrize(
    ("name", "first", "expected"),
    [
        ("leads.csv", b"{", "csv"),
        ("LEADS.NDJSON", b"a,b", "ndjson"),
        ("leads.jsonl", b"a,b", "ndjson"),
        ("leads.txt", b'  {"a": 1}', "ndjson"),
        ("leads.txt", b"firstName,phone", "csv"),
        (None, b"\t{", "ndjson"),
    ],
)
def test_format_by_extension_then_first_character(
    name: str | None, first: bytes, expected: str
) -> None:
    assert format_for(name, first) == expected


def test_detection_skips_blank_lines_which_still_count_as_rows() -> None:
    rows = rows_of(b'\n  \n{"email": "a@x.test"}\n')
    assert [(row.number, row.valid) for row in rows] == [(1, False), (2, False), (3, True)]


def test_a_byte_order_mark_and_crlf_line_ends_are_accepted() -> None:
    rows = rows_of(b"\xef\xbb\xbffirstName,email\r\nAda,a@x.test\r\n")
    assert bodies(rows) == [{"firstName": "Ada", "email": "a@x.test"}]


def test_undecodable_bytes_make_only_their_row_invalid() -> None:
    csv_rows = rows_of(b"firstName\nAda\nB\xe9a\nCy\n")
    assert bodies(csv_rows) == [{"firstName": "Ada"}, "not UTF-8 text", {"firstName": "Cy"}]
    ndjson_rows = rows_of(b'{"a": "x"}\n{"a": "\xe9"}\n', fmt="ndjson")
    assert bodies(ndjson_rows) == [{"a": "x"}, "not UTF-8 text"]


def test_csv_values_are_kept_as_written() -> None:
    rows = rows_of(b'zip,score,vip,note\n00123,7,true," padded "\n')
    assert bodies(rows) == [{"zip": "00123", "score": "7", "vip": "true", "note": " padded "}]


def test_a_quoted_value_over_several_lines_is_one_row() -> None:
    rows = rows_of(b'name,email\n"Ada\nLovelace",a@x.test\nBob,b@x.test\n')
    assert [(row.number, row.body) for row in rows] == [
        (1, {"name": "Ada\nLovelace", "email": "a@x.test"}),
        (2, {"name": "Bob", "email": "b@x.test"}),
    ]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (b",email\n", "not a header of field names"),
        (b"first name,email\n", "'first name'"),
        (b"tags,tags[]\n", "both 'tags' and 'tags[]'"),
        (b"\n", "the header row is empty"),
    ],
)
def test_unusable_headers(header: bytes, message: str) -> None:
    with pytest.raises(UsageError) as raised:
        rows_of(header + b"x,y\n", fmt="csv")
    assert message in raised.value.message


def test_digests_follow_the_row_text_not_its_number() -> None:
    first = rows_of(b'{"a": 1}\n{"a": 2}\n')
    moved = rows_of(b'{"a": 2}\n{"a": 1}\n')
    assert first[0].digest == moved[1].digest
    assert first[0].digest != first[1].digest
    # Spacing around the line does not change what was meant.
    assert rows_of(b'  {"a": 1}  \r\n')[0].digest == first[0].digest


def test_rows_are_read_lazily_from_a_stream() -> None:
    class OneWay(io.RawIOBase):
        """A pipe: lines come as they are produced; reading past them fails the test."""

        def __init__(self) -> None:
            self.lines = [b'{"n": 1}\n', b'{"n": 2}\n']

        def readable(self) -> bool:
            return True

        def readline(self, size: int | None = -1) -> bytes:
            if not self.lines:
                raise AssertionError("read ahead of the consumer")
            return self.lines.pop(0)

        def __iter__(self) -> OneWay:
            return self

        def __next__(self) -> bytes:
            if not self.lines:
                raise AssertionError("read ahead of the consumer")
            return self.lines.pop(0)

    stream = OneWay()
    head = head_lines(stream)  # type: ignore[arg-type]
    rows = read_rows(itertools.chain(head, stream), "ndjson", prepare=lambda body: body, source="-")
    assert next(rows).body == {"n": 1}
    assert stream.lines == [b'{"n": 2}\n']  # the second line is still in the pipe
    assert next(rows).body == {"n": 2}
