"""``leadctl leads import``: options checked, rows read, sent, reported and summed up.

Every usage error (a missing file, an unusable CSV header, a report that would mix two
imports or is in use by another run, a --resume against a changed file) is raised before
the first request.
"""

from __future__ import annotations

import contextlib
import io
import itertools
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from leadctl.bulk.columns import ColumnPlan, plan_columns
from leadctl.bulk.display import describe
from leadctl.bulk.engine import Tally, Words, progress_wanted, run_jobs
from leadctl.bulk.options import STDIN, ImportOptions
from leadctl.bulk.report import UNKNOWN, Outcome, ResumeState, holding_reports, read_resume
from leadctl.bulk.rows import Prepare, Row, format_for, head_lines, phone_preparer, read_rows
from leadctl.bulk.sender import Job, Plan
from leadctl.config.rate_limit import known_limit
from leadctl.contract.operations import curated
from leadctl.errors import DryRunDone, UsageError
from leadctl.inputs.lead_fields import column_renames, lead_preparer, with_mapping

if TYPE_CHECKING:
    from leadctl.config.rate_limit import RateLimit
    from leadctl.contract.operations import Operation
    from leadctl.verbkit.invocation import RequestInvocation

# Answers every other row would get too: the import stops (a 404 to POST /leads is a
# wrong base URL).
STOPPING_STATUSES = frozenset({401, 403, 404})


def run_import(ctx: RequestInvocation, options: ImportOptions) -> None:
    if options.retry_unknown and options.resume is None:
        raise UsageError("--retry-unknown only applies with --resume REPORT")

    limit = known_limit(options.rate, ctx.settings.get("rate_limit"))
    report_target = options.report or options.resume
    op = curated(ctx, "POST", "/leads")
    # A dry run sends nothing: it may look at a report another run is using.
    held = () if ctx.options.dry_run else reports_of(options.report, options.resume)
    with holding_reports(held):
        check_report_target(report_target, options.resume)
        resume = read_resume(Path(options.resume)) if options.resume else None
        _import(ctx, options, op, resume, report_target, limit)


def _import(
    ctx: RequestInvocation,
    options: ImportOptions,
    op: Operation,
    resume: ResumeState | None,
    report_target: str | None,
    limit: RateLimit | None,
) -> None:

    renames = column_renames(options.maps)
    # Rows of unknown outcome go again on --resume only with --retry-unknown, unless a
    # resend is harmless: the operation is retry-safe, or its key (kept in the report)
    # goes again with it.
    retry_unknown = options.retry_unknown or resendable(op)
    stream, source, path = open_input(ctx, options.file)
    with stream:
        head = head_lines(stream)
        fmt = options.fmt or format_for(path.name if path else None, head[-1] if head else b"")
        columns = _columns(ctx, head[-1] if fmt == "csv" and head else None, renames)
        prepare = _preparer(ctx, columns.header if columns else None, options)
        rows = read_rows(
            itertools.chain(head, stream),
            fmt,
            prepare=prepare,
            source=source,
            renames=columns.renames if columns else renames,
            ignored=columns.ignored if columns else frozenset(),
        )
        tally = Tally()
        if resume is not None:
            if path is not None:
                _verify_resume(
                    path, fmt, resume, options, columns, renames, retry_unknown=retry_unknown
                )
            rows = _skipping(rows, resume, options, tally, retry_unknown=retry_unknown)
        if ctx.options.dry_run:
            _dry_run(ctx, rows, tally)
            return
        _send_all(
            ctx,
            options,
            op,
            rows,
            tally,
            report_target,
            _total(ctx, path, fmt, resume),
            keys=resume.keys if resume is not None else {},
            limit=limit,
        )


def resendable(op: Operation) -> bool:
    """Whether sending a request of ``op`` again is harmless (batch lines too)."""
    return op.retry_safe or op.idempotency is not None


def reports_of(report: str | None, resume: str | None) -> tuple[Path, ...]:
    """The report files a run reads or appends to (``--report -`` is stdout)."""
    return tuple(Path(name) for name in (report, resume) if name is not None and name != STDIN)


def _columns(
    ctx: RequestInvocation, header: bytes | None, renames: Mapping[str, str]
) -> ColumnPlan | None:
    """The field each CSV column is read as (leadctl.bulk.columns), None for NDJSON:
    a column that names no lead field is exit 2 here, before any row is read."""
    if header is None:
        return None

    return plan_columns(ctx, curated(ctx, "POST", "/leads"), header, renames)


def _preparer(ctx: RequestInvocation, header: bytes | None, options: ImportOptions) -> Prepare:
    """Rows typed on the contract's lead schema (leadctl.inputs.lead_fields); where the contract
    lists no lead fields, cells stay strings and only the phone is checked. Either way
    --map renames and --field fills in (leadctl.inputs.lead_fields.with_mapping). ``header``
    names the fields a CSV's columns are read as."""

    op = curated(ctx, "POST", "/leads")
    found = lead_preparer(ctx, op, header=header)
    prepare = found if found is not None else phone_preparer(ctx.settings.get("region"))
    return with_mapping(ctx, op, prepare, maps=options.maps, fields=options.fields)


# -- before sending ----------------------------------------------------------------------


def check_report_target(report: str | None, resume: str | None) -> None:
    if report is None or report == STDIN:
        return
    target = Path(report)
    if target.is_dir():
        raise UsageError(f"--report {report} is a directory")
    same_as_resume = resume is not None and _same_file(target, Path(resume))
    if not same_as_resume and target.exists() and target.stat().st_size > 0:
        raise UsageError(
            f"--report {report} already holds a report",
            hint=f"go on with --resume {report}, or name a new report file",
        )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def open_input(
    ctx: RequestInvocation, file: str, *, what: str = "leads"
) -> tuple[IO[bytes], str, Path | None]:
    if file == STDIN:
        stdin = ctx.ios.stdin
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # a text stream without bytes underneath (tests)
            return io.BytesIO(stdin.read().encode("utf-8")), "stdin", None
        return buffer, "stdin", None
    path = Path(file)
    try:
        return path.open("rb"), file, path
    except FileNotFoundError:
        raise UsageError(f"{file}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{file} is a directory, not a file of {what}") from None
    except OSError as error:
        raise UsageError(f"cannot read {file}: {error.strerror or error}") from None


def _verify_resume(
    path: Path,
    fmt: str,
    resume: ResumeState,
    options: ImportOptions,
    columns: ColumnPlan | None,
    renames: Mapping[str, str],
    *,
    retry_unknown: bool,
) -> None:
    """Compare the file with the report before anything is sent: resuming against an
    edited file (rows added, removed, reordered) would skip the wrong rows and send
    created ones again."""
    last = 0
    with path.open("rb") as stream:
        lines = itertools.chain(head_lines(stream), stream)
        rows = read_rows(
            lines,
            fmt,
            prepare=lambda body: body,
            source=str(path),
            renames=columns.renames if columns else renames,
            ignored=columns.ignored if columns else frozenset(),
        )
        for row in rows:
            last = row.number
            _skip_reason(row, resume, options, retry_unknown=retry_unknown)
    beyond = [number for number in resume.rows if number > last]
    if beyond:
        raise _changed(options, f"the report has row {min(beyond)} but {path} has {last} rows")


def _skip_reason(
    row: Row, resume: ResumeState, options: ImportOptions, *, retry_unknown: bool
) -> str | None:
    """The outcome for which ``row`` is skipped (None: it is sent); a changed row that
    would be skipped is an error."""
    skip = resume.skip_reason(row.number, retry_unknown=retry_unknown)
    if skip is None:
        return None
    outcome, digest = skip
    if digest and digest != row.digest:
        raise _changed(options, f"row {row.number} is not the row the report has as {outcome}")
    return outcome


def _changed(options: ImportOptions, what: str) -> UsageError:
    return UsageError(
        f"--resume {options.resume}: {what}; the file changed since that import",
        hint="resume with the same file, unedited; put new or corrected rows in a new file "
        "(rows the report has as rejected or invalid may be corrected in place)",
    )


def _skipping(
    rows: Iterator[Row],
    resume: ResumeState,
    options: ImportOptions,
    tally: Tally,
    *,
    retry_unknown: bool,
) -> Iterator[Row]:
    for row in rows:
        skipped = _skip_reason(row, resume, options, retry_unknown=retry_unknown)
        if skipped == UNKNOWN:
            tally.still_unknown += 1  # not sent, and not done either: exit 9
        elif skipped is not None:
            tally.skipped += 1
        else:
            yield row


def _total(
    ctx: RequestInvocation, path: Path | None, fmt: str, resume: ResumeState | None
) -> int | None:
    """Rows still to do, for the progress bar (lines, so a CSV value spanning lines makes
    it approximate); None when there is no bar or the input is a stream."""
    if path is None or not progress_wanted(ctx):
        return None
    lines = 0
    last = b"\n"
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    if last != b"\n":
        lines += 1
    if fmt == "csv":
        lines = max(0, lines - 1)
    skipped = 0 if resume is None else sum(1 for n in resume.rows if n <= lines)
    return max(0, lines - skipped)


# -- sending -----------------------------------------------------------------------------


def _dry_run(ctx: RequestInvocation, rows: Iterator[Row], tally: Tally) -> None:
    """Each valid row's request as a curl command; invalid rows on stderr; nothing sent."""

    client = ctx.client()
    for row in rows:
        if row.body is None:
            tally.invalid += 1
            ctx.ios.warn(describe(_invalid(row)))
            continue
        with contextlib.suppress(DryRunDone):
            client.call(curated(ctx, "POST", "/leads"), json_body=row.body)
    if tally.invalid:
        ctx.ios.info(f"dry run: {tally.invalid} invalid rows would not be sent")


def _invalid(row: Row) -> Outcome:
    return Outcome(row.number, "invalid", row.digest, error={"detail": row.problem})


def _send_all(
    ctx: RequestInvocation,
    options: ImportOptions,
    op: Operation,
    rows: Iterator[Row],
    tally: Tally,
    report_target: str | None,
    total: int | None,
    *,
    keys: Mapping[int, str],
    limit: RateLimit | None,
) -> None:

    run_jobs(
        ctx,
        plan=Plan(op, success="created", stopping=STOPPING_STATUSES),
        # A row the report has a key for (it was sent before) goes again with that key.
        jobs=(
            Job(
                row.number,
                row.digest,
                problem=row.problem,
                body=row.body,
                key=keys.get(row.number),
            )
            for row in rows
        ),
        concurrency=options.concurrency,
        tally=tally,
        report_target=report_target,
        resumed_from=options.resume,
        total=total,
        words=_words(options),
        limit=limit,
    )


def _words(options: ImportOptions) -> Words:
    return Words(
        noun="row",
        doing="importing",
        done="created",
        run="the import",
        resume_command=f"leadctl leads import {options.file}",
        check_hint="check them (e.g. `leadctl leads list --search EMAIL`) before sending "
        "them again",
    )
