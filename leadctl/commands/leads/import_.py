"""``leadctl leads import``: a file of leads to intake, one POST /leads per row.

The work is in leadctl/bulk/ (the engine ``batch`` uses too), imported only when the
command runs; it is handed :class:`leadctl.bulk.options.ImportOptions`, whose fields are the
flags' by name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.bulk.options import DEFAULT_CONCURRENCY, ImportOptions
from leadctl.bulk.runner import run_import
from leadctl.commands._verb import verb_command

if TYPE_CHECKING:
    from leadctl.context import Context

__all__ = ["EPILOG", "Options", "command", "run"]

MAX_CONCURRENCY = 64

EPILOG = (
    "Examples:\n\n"
    "  leadctl leads import leads.csv --report leads.report.ndjson\n\n"
    "  leadctl leads import leads.csv --resume leads.report.ndjson\n\n"
    "  leadctl leads import form.csv --map 'Mobile=contact.phone.number' "
    "--field 'metadata.consentCertificateUrl=https://cert.example.com/c/1'\n\n"
    "  leadctl leads list --all -o csv > leads.csv && leadctl -p other leads import leads.csv "
    "--field 'tagIds=[]'\n\n"
    "  jq -c '.leads[]' export.json | leadctl -p intake leads import - --report - "
    "| jq -c 'select(.outcome != \"created\")'"
)


class InputFormat(str, Enum):
    csv = "csv"
    ndjson = "ndjson"


@dataclass(frozen=True)
class Options:
    """The command line; the engine's own options are ImportOptions (the same names)."""

    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE|-",
            help="CSV with a header row, or NDJSON (one JSON object per line); - reads stdin.",
        ),
    ]
    fmt: Annotated[
        InputFormat | None,
        typer.Option(
            "--format",
            help="Input format [default: by the extension (.csv; .ndjson, .jsonl, .json), "
            "else by the first character: { is NDJSON].",
        ),
    ] = None
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency",
            min=1,
            max=MAX_CONCURRENCY,
            metavar="N",
            help="Requests in flight at most.",
        ),
    ] = DEFAULT_CONCURRENCY
    report: Annotated[
        str | None,
        typer.Option(
            "--report",
            metavar="FILE",
            help="Append each row's outcome as an NDJSON line: row, outcome (created, "
            "rejected, invalid, unknown, unsent), id, error, digest, key. A file also gets "
            "a 'sending' line before each row's first request; - writes outcomes only to "
            "stdout. [default: the --resume file]",
        ),
    ] = None
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="REPORT",
            help="Skip the rows REPORT has as created, and as unknown (exit 9: they stay "
            "unknown until --retry-unknown), and append to it.",
        ),
    ] = None
    maps: Annotated[
        tuple[str, ...],
        typer.Option(
            "--map",
            metavar="COLUMN=PATH",
            help="Read CSV column (or NDJSON key) COLUMN as the lead field at dot path PATH "
            "(repeatable).",
        ),
    ] = ()
    fields: Annotated[
        tuple[str, ...],
        typer.Option(
            "--field",
            metavar="PATH=VALUE",
            help="A value for every row that has none of its own (repeatable), typed from the "
            "schema like a cell; an empty list is 'tagIds=[]' (a required list the file "
            "lacks).",
        ),
    ] = ()
    retry_unknown: Annotated[
        bool,
        typer.Option(
            "--retry-unknown",
            help="With --resume, send rows whose outcome was unknown again (they may have "
            "been created: this can make duplicates, unless the contract's create takes "
            "an idempotency key, which then goes again with them).",
        ),
    ] = False
    rate: Annotated[
        str | None,
        typer.Option(
            "--rate",
            metavar="N/WINDOW",
            help="The service's limit, e.g. 300/60s: rows go evenly at that pace from the "
            "first one, instead of bursting until the first 429. [default: the profile's "
            "rate_limit, else paced by the service's 429s]",
        ),
    ] = None


def run(opts: Options, ctx: Context) -> None:
    """Read the rows, send each to intake at the service's pace, report the outcomes."""
    given = {field.name: getattr(opts, field.name) for field in dataclasses.fields(opts)}
    run_import(ctx, ImportOptions(**{**given, "fmt": opts.fmt.value if opts.fmt else None}))


HELP = """Import leads from a CSV or NDJSON file: one POST /leads per row, at the service's pace.

    Rows are numbered from 1, counting data rows only (a CSV header is not a row). CSV
    headers are dot paths into the active contract's lead schema (contact.firstName;
    --map reads other column names as fields). A file `leads list -o csv` wrote imports
    back as it is: its columns are read as the lead field of the same name (firstName as
    contact.firstName, phone as contact.phone.number, tags[].name as tagNames), and the
    columns the service sets (id, createdAt, status) are left out, with a note. Any other
    column is exit 2 naming the closest fields, before anything is sent. Cells are typed
    from the schema (720 for an integer, yes/no for a boolean, a;b for a list, a
    date-time without an offset in the profile's timezone, `tags[]` columns repeat); an
    empty cell leaves the field out (a required list is then empty); the ' that -o csv
    puts before a formula-like cell is removed. NDJSON objects keep their JSON types.
    Either way every phone-shaped field is checked and sent in E.164 (national numbers use
    the profile's region), and a row missing a required field is invalid, as with `leads
    create`. --field gives every row that lacks a field the same value: --field
    'tagIds=[]' for a required list that the file has no column for.

    Up to --concurrency requests are in flight, at the pace of --rate (or the profile's
    rate_limit) from the first request when given. When the service answers 429 every
    worker pauses for its Retry-After (backoff with jitter without one), then sending
    resumes at the rate the service accepted, measured across its window, and slowly
    grows, back to full pace once a window passes without a 429. Invalid
    rows (bad JSON, wrong number of CSV fields, an empty line, a bad phone, a value of the
    wrong type, a missing required field) are reported and skipped; the import goes on.

    POST /leads is not retry-safe (unless the contract gives it an idempotency key: one
    per row, the same on every retry, in the report and on --resume): only 429 answers and
    failures to connect are sent again. A report file records each row before it is sent,
    then its outcome; one run at a time may use it. A row sent without an answer
    (timeout, dropped connection, 5xx) is reported "unknown" and never sent twice:
    --resume skips it and exits 9 until --retry-unknown is given. The import stops early
    on 401, 403 or 404, when the service cannot be reached, or after 10 unknown outcomes
    in a row; Ctrl-C stops it after the answers in flight, recording a row waiting to be
    sent again as unknown (or unsent, when the service cannot have acted). A row
    refused (429) for an hour is reported rejected (a --resume sends it again).

    A progress bar is drawn on a terminal's stderr. The summary (created, rejected,
    invalid, unknown, time, rate) goes to stderr. Exit 0 when every row was created, 6 when
    some were rejected or invalid, 9 when any outcome is unknown (it wins over 6).
    """

command = verb_command(Options, run, help=HELP)
