"""``--jq EXPR``: the JSON output filtered by a jq program, with gh's conventions.

Each result goes on its own line: a string as its raw text, anything else as JSON (compact
in a pipe, indented on a terminal, where escapes in the text are shown, not acted on). The
``jq`` package (bindings to the jq library) is imported only when the option is used.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TextIO

from leadctl.errors import UsageError
from leadctl.iostreams import safe_json, safe_text
from leadctl.output.json_out import COMPACT_JSON, PRETTY_JSON


class _Program(Protocol):
    def input_value(self, value: Any) -> Any: ...


def compile_jq(expression: str) -> _Program:
    import jq  # type: ignore[import-not-found]

    try:
        program: _Program = jq.compile(expression)
    except ValueError as error:
        raise UsageError(
            f"--jq {expression!r}: {_first_line(error)}",
            hint="the expression is jq's language, e.g. --jq '.[].id'",
        ) from None
    return program


def write_jq(stream: TextIO, program: _Program, value: Any, *, pretty: bool) -> int:
    """Run ``program`` on ``value`` and print its results; returns how many."""
    try:
        results = program.input_value(value).all()
    except ValueError as error:
        raise UsageError(f"--jq: {_first_line(error)}") from None
    encode = (PRETTY_JSON if pretty else COMPACT_JSON).encode
    for result in results:
        text = result if isinstance(result, str) else encode(result)
        if pretty:  # a terminal: the service's text is shown, never acted on
            text = safe_text(text) if isinstance(result, str) else safe_json(text)
        stream.write(text + "\n")
    return len(results)


def write_jq_each(stream: TextIO, program: _Program, items: Iterable[Any], *, pretty: bool) -> int:
    """``--all``: the program runs on each item as it arrives, so memory stays flat."""
    count = 0
    for item in items:
        write_jq(stream, program, item, pretty=pretty)
        count += 1
    stream.flush()
    return count


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
