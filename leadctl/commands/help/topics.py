"""``leadctl help TOPIC``: what the manual page says beyond the commands, in the CLI itself.

A uv or pip install puts no man page on MANPATH, so the environment variables, the exit
codes, the output formats and the retry rules are readable with ``leadctl help environment``
(and the others), as ``gh help environment`` is. The environment and the exit codes are the
tables leadctl(1) is generated from (:mod:`leadctl.docgen.reference`), so the two never
disagree; the other topics quote the constants they describe.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable

from leadctl.config.request_limits import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from leadctl.docgen.reference import ENVIRONMENT, EXIT_CODES
from leadctl.formats import OUTPUT_FORMATS
from leadctl.http.retry import BACKOFF_CAP_SECONDS

INDENT = "    "


def _entries(rows: Iterable[tuple[str, str]], width: int) -> str:
    """``NAME`` lines, each followed by its text indented (as man's tagged paragraphs)."""
    return "\n".join(
        f"{name}\n" + textwrap.fill(text, width, initial_indent=INDENT, subsequent_indent=INDENT)
        for name, text in rows
    )


def _paragraphs(text: str, width: int) -> str:
    return "\n\n".join(textwrap.fill(part, width) for part in text.strip().split("\n\n"))


def environment(width: int) -> str:
    return "Environment variables leadctl reads:\n\n" + _entries(ENVIRONMENT, width)


def exit_codes(width: int) -> str:
    rows = [(str(int(code)), text) for code, text in EXIT_CODES.items()]
    return "leadctl's exit status:\n\n" + _entries(rows, width)


def formatting(width: int) -> str:
    formats = ", ".join(OUTPUT_FORMATS)
    return _paragraphs(
        f"""
-o/--output FMT picks the format of stdout: {formats}. The default is table on a
terminal and json otherwise; the profile's `output` setting and LEADCTL_OUTPUT change it.

json prints the service's JSON as received (unknown fields kept, nothing renamed), a list
as one array streamed item by item; ndjson prints one item a line; yaml is the same data
as YAML. table is for people: readable times, colors and a pager on a terminal only.
csv and tsv have a header row of field paths, and read back with `leadctl leads import`;
value is tsv without the header, for ID=$(leadctl ... -o value --columns id).

--columns a,b.c picks fields (dot paths, tags[].name) in every format: the columns of
table/csv/tsv/value, the keys of each JSON object. --json FIELDS is -o json --columns
FIELDS, as gh has it. An unknown field is exit 2, naming the known ones.

--jq EXPR filters the JSON output with a jq expression (strings print raw, other values
as JSON); with --all or -o ndjson it runs on each item.

csv/tsv cells that a spreadsheet would run as a formula (= + - @, tab or CR first) get a
leading '; --allow-formulas writes them as they are.

Times are shown in the profile's timezone, else the system's; --utc shows UTC. Colors
follow --no-color, NO_COLOR, CLICOLOR=0 (off) and CLICOLOR_FORCE or FORCE_COLOR (on, even
when piped); long tables go through LEADCTL_PAGER, then PAGER, then less -FRX, unless
--no-pager.
""",
        width,
    )


def retries(width: int) -> str:
    return _paragraphs(
        f"""
Whether a request is sent again comes from what the operation does, not its HTTP method.
Reads (a POST whose body is a collection query included) and PUTs are retry-safe: they
are retried on 429, 5xx, connection errors and timeouts. Operations that are not
(creating a lead, rotating a source key, a2a) are retried only on 429, when the service
did not act; any other failure after the request was sent is exit 9, saying what to
check. An operation that takes an idempotency key is sent with one key per invocation,
the same on every retry, and is retried like a read.

--max-retries N (default {DEFAULT_MAX_RETRIES}) allows at most N+1 attempts. With
Retry-After the wait is exactly that; without it, exponential backoff with jitter, capped
at {BACKOFF_CAP_SECONDS:g}s. 400, 401, 403 and 404 are never retried. Each retry is one
line on stderr (retrying in 2s: 429 rate limited) unless -q.

--all waits out 429s whatever --max-retries says (the rate limit is the pace of a long
read); exit 7 is for single requests. --timeout SECONDS (default {DEFAULT_TIMEOUT:g},
LEADCTL_TIMEOUT) bounds each request.

The profile keys retry_safe_operations and retry_unsafe_operations override all of
this, per operation.
""",
        width,
    )


# name -> (one line for the list of topics, the text at a width)
TOPICS: dict[str, tuple[str, Callable[[int], str]]] = {
    "environment": ("Environment variables leadctl reads.", environment),
    "exit-codes": ("What each exit status means.", exit_codes),
    "formatting": ("Output formats, --columns, --json, --jq, colors and the pager.", formatting),
    "retries": ("When a request is sent again, and how long leadctl waits.", retries),
}
