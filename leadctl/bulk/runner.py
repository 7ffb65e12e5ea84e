"""``leadctl leads import``: options checked, rows read, sent, reported and summed up.

Every usage error (a missing file, an unusable CSV header, a report that would mix two
imports, a --resume against a changed file) is raised before the first request.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from leadctl.bulk.display import Display, describe
from leadctl.bulk.report import Outcome, ReportWriter, ResumeState, read_resume
from leadctl.bulk.rows import Prepare, Row, format_for, head_lines, phone_preparer, read_rows
from leadctl.errors import DryRunDone, ExitCode, LeadctlError, UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

STDIN = "-"


@dataclass(frozen=True)
class ImportOptions:
    file: str
    fmt: str | None = None
    concurrency: int = 4
    report: str | None = None
    resume: str | None = None
    retry_unknown: bool = False


@dataclass
class Tally:
    created: int = 0
    rejected: int = 0
    invalid: int = 0
    unknown: int = 0
    skipped: int = 0
    rate_limited: int = 0
    paused_seconds: float = 0.0
    elapsed: float = 0.0

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.outcome, getattr(self, outcome.outcome) + 1)

    @property
    def sent(self) -> int:
        return self.created + self.rejected + self.unknown

    @property
    def rate(self) -> float:
        return self.sent / self.elapsed if self.elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "rejected": self.rejected,
            "invalid": self.invalid,
            "unknown": self.unknown,
            "skipped": self.skipped,
            "rateLimited": self.rate_limited,
            "elapsedSeconds": round(self.elapsed, 3),
            "requestsPerSecond": round(self.rate, 1),
        }


class ImportIncomplete(LeadctlError):
    """Some rows were not created (exit 6), or may or may not have been (exit 9)."""

    def __init__(self, message: str, *, exit_code: ExitCode, hint: str, tally: Tally) -> None:
        super().__init__(message, hint=hint)
        self.exit_code = exit_code
        self.tally = tally

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["summary"] = self.tally.to_json()
        return body


class ImportInterrupted(LeadctlError):
    exit_code = ExitCode.INTERRUPTED


def run_import(ctx: Context, options: ImportOptions) -> None:
    if options.retry_unknown and options.resume is None:
        raise UsageError("--retry-unknown only applies with --resume REPORT")
    report_target = options.report or options.resume
    _check_report_target(report_target, options.resume)
    resume = read_resume(Path(options.resume)) if options.resume else None
    stream, source, path = _open_input(ctx, options.file)
    with stream:
        head = head_lines(stream)
        fmt = options.fmt or format_for(path.name if path else None, head[-1] if head else b"")
        prepare = _preparer(ctx, head[-1] if fmt == "csv" and head else None)
        rows = read_rows(itertools.chain(head, stream), fmt, prepare=prepare, source=source)
        tally = Tally()
        if resume is not None:
            if path is not None:
                _verify_resume(path, fmt, resume, options)
            rows = _skipping(rows, resume, options, tally)
        if ctx.options.dry_run:
            _dry_run(ctx, rows, tally)
            return
        _send_all(ctx, options, rows, tally, report_target, _total(ctx, path, fmt, resume))


def _preparer(ctx: Context, header: bytes | None) -> Prepare:
    """Rows typed on the contract's lead schema (leadctl.lead_fields); where the contract
    lists no lead fields, cells stay strings and only the phone is checked."""
    from leadctl.lead_fields import lead_preparer
    from leadctl.operations import curated

    found = lead_preparer(ctx, curated(ctx, "POST", "/leads"), header=header)
    return found if found is not None else phone_preparer(ctx.settings.get("region"))


# -- before sending ----------------------------------------------------------------------


def _check_report_target(report: str | None, resume: str | None) -> None:
    if report is None or report == STDIN:
        return
    target = Path(report)
    if target.is_dir():
        raise UsageError(f"--report {report} is a directory")
    same_as_resume = resume is not None and _same_file(target, Path(resume))
    if not same_as_resume and target.exists() and target.stat().st_size > 0:
        raise UsageError(
            f"--report {report} already holds a report",
            hint=f"continue that import with --resume {report}, or name a new report file",
        )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _open_input(ctx: Context, file: str) -> tuple[IO[bytes], str, Path | None]:
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
        raise UsageError(f"{file} is a directory, not a file of leads") from None
    except OSError as error:
        raise UsageError(f"cannot read {file}: {error.strerror or error}") from None


def _verify_resume(path: Path, fmt: str, resume: ResumeState, options: ImportOptions) -> None:
    """Compare the file with the report before anything is sent: resuming against an
    edited file (rows added, removed, reordered) would skip the wrong rows and send
    created ones again."""
    last = 0
    with path.open("rb") as stream:
        lines = itertools.chain(head_lines(stream), stream)
        for row in read_rows(lines, fmt, prepare=lambda body: body, source=str(path)):
            last = row.number
            _check_unchanged(row, resume, options)
    beyond = [number for number in resume.rows if number > last]
    if beyond:
        raise _changed(options, f"the report has row {min(beyond)} but {path} has {last} rows")


def _check_unchanged(row: Row, resume: ResumeState, options: ImportOptions) -> bool:
    """True when ``row`` is to be skipped; a changed row that would be skipped is an error."""
    skip = resume.skip_reason(row.number, retry_unknown=options.retry_unknown)
    if skip is None:
        return False
    outcome, digest = skip
    if digest and digest != row.digest:
        raise _changed(options, f"row {row.number} is not the row the report has as {outcome}")
    return True


def _changed(options: ImportOptions, what: str) -> UsageError:
    return UsageError(
        f"--resume {options.resume}: {what}; the file changed since that import",
        hint="resume with the same file, unedited; put new or corrected rows in a new file "
        "(rows the report has as rejected or invalid may be corrected in place)",
    )


def _skipping(
    rows: Iterator[Row], resume: ResumeState, options: ImportOptions, tally: Tally
) -> Iterator[Row]:
    for row in rows:
        if _check_unchanged(row, resume, options):
            tally.skipped += 1
            continue
        yield row


def _total(ctx: Context, path: Path | None, fmt: str, resume: ResumeState | None) -> int | None:
    """Rows still to do, for the progress bar (lines, so a CSV value spanning lines makes
    it approximate); None when there is no bar or the input is a stream."""
    if path is None or not _progress_wanted(ctx):
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


def _progress_wanted(ctx: Context) -> bool:
    return ctx.ios.progress_enabled and ctx.ios.env.get("TERM") != "dumb"


# -- sending -----------------------------------------------------------------------------


def _dry_run(ctx: Context, rows: Iterator[Row], tally: Tally) -> None:
    """Each valid row's request as a curl command; invalid rows on stderr; nothing sent."""
    from leadctl.operations import curated

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
    ctx: Context,
    options: ImportOptions,
    rows: Iterator[Row],
    tally: Tally,
    report_target: str | None,
    total: int | None,
) -> None:
    from leadctl.bulk.pacer import Pacer
    from leadctl.bulk.sender import Importer
    from leadctl.client import Client, RetryPolicy
    from leadctl.operations import curated

    ctx.require_credential()
    ctx.base_url()
    report = None
    if report_target == STDIN:
        report = ReportWriter(stream=ctx.ios.stdout)
    elif report_target is not None:
        report = ReportWriter(path=Path(report_target))
    display = _display(ctx, notes=report is None)
    client = Client.from_context(ctx)
    # 429 and connection failures are this import's to handle: the pause is shared by all
    # workers, and the client must not sleep on its own.
    client.policy = RetryPolicy(max_retries=0)
    backoff = RetryPolicy().backoff
    stop = threading.Event()
    clock = ctx.clock
    pacer = Pacer(monotonic=clock.monotonic, sleep=clock.sleep, backoff=backoff, stop=stop)

    def on_outcome(outcome: Outcome) -> None:
        tally.add(outcome)
        if report is not None:
            report.write(outcome)
        display.outcome(outcome, rate_limited=importer.rate_limited)

    importer = Importer(
        client=client,
        operation=curated(ctx, "POST", "/leads"),
        rows=rows,
        concurrency=options.concurrency,
        pacer=pacer,
        on_outcome=on_outcome,
        stop=stop,
        max_connect_retries=ctx.options.max_retries,
        backoff=backoff,
    )
    started = clock.monotonic()
    failure: LeadctlError | None = None
    display.start(total)
    try:
        importer.run()
    except LeadctlError as error:
        failure = error
    finally:
        tally.elapsed = clock.monotonic() - started
        tally.rate_limited = importer.rate_limited
        tally.paused_seconds = pacer.paused_seconds
        display.stop()
        if report is not None:
            report.close()
        client.close()
    ctx.ios.info(_summary(tally, options))
    if failure is not None and report_target not in (None, STDIN):
        ctx.ios.info(f"to go on: leadctl leads import {options.file} --resume {report_target}")
    _finish(tally, options, report_target, failure, interrupted=importer.interrupted)


def _display(ctx: Context, *, notes: bool) -> Display:
    if _progress_wanted(ctx):
        from leadctl.bulk.display import ProgressDisplay

        return ProgressDisplay(ctx.ios, notes=notes)
    return Display(ctx.ios, notes=notes)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _summary(tally: Tally, options: ImportOptions) -> str:
    text = (
        f"{_plural(tally.sent, 'row')} sent in {tally.elapsed:.1f}s ({tally.rate:.1f}/s): "
        f"{tally.created} created, {tally.rejected} rejected, {tally.invalid} invalid, "
        f"{tally.unknown} unknown"
    )
    if tally.skipped:
        text += f", {tally.skipped} skipped (done in {options.resume})"
    if tally.rate_limited:
        text += (
            f"; rate limited {_plural(tally.rate_limited, 'time')}, "
            f"{tally.paused_seconds:.1f}s paused in all"
        )
    return text


def _finish(
    tally: Tally,
    options: ImportOptions,
    report_target: str | None,
    failure: LeadctlError | None,
    *,
    interrupted: bool,
) -> None:
    where = f" (see {report_target})" if report_target not in (None, STDIN) else ""
    resume_hint = (
        f"to go on: leadctl leads import {options.file} --resume {report_target}"
        if report_target not in (None, STDIN)
        else "pass --report FILE next time to be able to resume"
    )
    stopped = ""
    if failure is not None:
        stopped = f"; the import stopped early: {failure.message}"
    elif interrupted:
        stopped = "; the import was interrupted"
    if tally.unknown:
        raise ImportIncomplete(
            f"{_plural(tally.unknown, 'row')} with an unknown outcome{where}: the service "
            f"may or may not have created them{stopped}",
            exit_code=ExitCode.OUTCOME_UNKNOWN,
            hint="check them (e.g. `leadctl leads list --search EMAIL`) before sending them "
            "again; --resume skips them unless --retry-unknown is given",
            tally=tally,
        )
    if interrupted:
        raise ImportInterrupted("interrupted", hint=resume_hint)
    if failure is not None:
        raise failure
    if tally.rejected or tally.invalid:
        raise ImportIncomplete(
            f"{_plural(tally.rejected + tally.invalid, 'row')} not created: {tally.rejected} "
            f"rejected, {tally.invalid} invalid{where}",
            exit_code=ExitCode.REJECTED,
            hint="correct them and import them again (rows created so far are skipped with "
            f"--resume {report_target})"
            if report_target not in (None, STDIN)
            else "pass --report FILE to keep every row's outcome",
            tally=tally,
        )
