"""One bulk run, whatever its input: jobs sent by :class:`~leadctl.bulk.sender.Sender` at
the :class:`~leadctl.http.pacer.Pacer`'s pace, each outcome appended to the report and
shown, the tally summed up on stderr and turned into the exit code (0, 6 or 9).

``leads import`` and ``batch`` differ only in what they read and in their words
(:class:`Words`); this module is the one copy of everything else.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from leadctl.bulk.display import Display, ProgressDisplay
from leadctl.bulk.options import STDIN
from leadctl.bulk.report import Outcome, ReportWriter
from leadctl.bulk.sender import Sender
from leadctl.cli.hints import for_profile
from leadctl.config.credential_use import takes_cookie
from leadctl.errors import ExitCode, LeadctlError
from leadctl.http.pacer import Pacer
from leadctl.http.retry import RetryPolicy

if TYPE_CHECKING:
    from leadctl.bulk.sender import Job, Plan
    from leadctl.config.rate_limit import RateLimit
    from leadctl.verbkit.invocation import RequestInvocation


@dataclass(frozen=True)
class Words:
    """How a run speaks of itself."""

    noun: str  # "row" / "line"
    doing: str  # the progress bar's label
    done: str  # what a success did: "created"
    run: str  # "the import" / "the batch"
    resume_command: str  # the command line that goes on, before `--resume REPORT`
    # How to find out whether an unknown outcome took effect.
    check_hint: str = "check whether they took effect before sending them again"


@dataclass
class Tally:
    created: int = 0
    ok: int = 0
    rejected: int = 0
    invalid: int = 0
    unknown: int = 0
    unsent: int = 0  # sent, refused, and the run stopped before sending it again
    skipped: int = 0  # done in the report resumed from
    still_unknown: int = 0  # unknown in the report resumed from, not sent again
    rate_limited: int = 0
    paused_seconds: float = 0.0
    elapsed: float = 0.0

    def add(self, outcome: Outcome) -> None:
        setattr(self, outcome.outcome, getattr(self, outcome.outcome) + 1)

    @property
    def succeeded(self) -> int:
        return self.created + self.ok

    @property
    def sent(self) -> int:
        return self.succeeded + self.rejected + self.unknown

    @property
    def rate(self) -> float:
        return self.sent / self.elapsed if self.elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        counts = {"created": self.created} if self.created or not self.ok else {"ok": self.ok}
        return {
            **counts,
            "rejected": self.rejected,
            "invalid": self.invalid,
            "unknown": self.unknown,
            "unsent": self.unsent,
            "skipped": self.skipped,
            "stillUnknown": self.still_unknown,
            "rateLimited": self.rate_limited,
            "elapsedSeconds": round(self.elapsed, 3),
            "requestsPerSecond": round(self.rate, 1),
        }


class BulkIncomplete(LeadctlError):
    """Some jobs did not succeed (exit 6), or may or may not have (exit 9)."""

    def __init__(self, message: str, *, exit_code: ExitCode, hint: str, tally: Tally) -> None:
        super().__init__(message, hint=hint)
        self.exit_code = exit_code
        self.tally = tally

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["summary"] = self.tally.to_json()
        return body


class BulkInterrupted(LeadctlError):
    exit_code = ExitCode.INTERRUPTED


def run_jobs(
    ctx: RequestInvocation,
    *,
    plan: Plan,
    jobs: Iterator[Job],
    concurrency: int,
    tally: Tally,
    report_target: str | None,
    resumed_from: str | None,
    total: int | None,
    words: Words,
    limit: RateLimit | None = None,
) -> None:
    """Send every job, paced (from the first request when the ``limit`` is known); the
    summary goes to stderr; raises for exit 6, 9, 130 or a stop. The caller holds the
    report (:func:`leadctl.bulk.report.holding_reports`)."""

    # The resume line is for this profile: `leadctl -p NAME ...` when it is not the implicit one.
    words = replace(words, resume_command=for_profile(ctx, words.resume_command))
    ctx.require_credential()
    ctx.base_url()
    report = None
    if report_target == STDIN:
        report = ReportWriter(stream=ctx.ios.data_out(json=True))
    elif report_target is not None:
        report = ReportWriter(path=Path(report_target))
    display = _display(ctx, notes=report is None, words=words)
    # One operation, sent thousands of times: Set-Cookie is read only where it takes one.
    client = ctx.new_client(keep_cookies=takes_cookie(plan.operation.requirements))
    stop = threading.Event()
    clock = ctx.clock
    # 429 and connection failures are the engine's to handle: the pause is shared by all
    # workers, and the client sends each request once.
    policy = RetryPolicy(max_retries=ctx.options.max_retries)
    pacer = Pacer(
        monotonic=clock.monotonic,
        sleep=clock.sleep,
        backoff=policy.backoff,
        stop=stop,
        limit=limit,
    )
    operation = plan.operation

    def on_outcome(outcome: Outcome) -> None:
        tally.add(outcome)
        if report is not None:
            report.write(outcome)
        display.outcome(outcome, rate_limited=sender.rate_limited)

    def on_sending(job: Job, sending: Outcome) -> None:
        if report is not None:
            # On disk first where a second send could act twice: an operation that is not
            # retry-safe, or one whose key a resend must repeat.
            report.sending(sending, durable=job.key is not None or not operation.retry_safe)

    sender = Sender(
        client=client,
        plan=plan,
        jobs=jobs,
        concurrency=concurrency,
        pacer=pacer,
        on_outcome=on_outcome,
        on_sending=on_sending,
        stop=stop,
        policy=policy,
        monotonic=clock.monotonic,
    )
    started = clock.monotonic()
    failure: LeadctlError | None = None
    display.start(total)
    try:
        sender.run()
    except LeadctlError as error:
        failure = error
    finally:
        tally.elapsed = clock.monotonic() - started
        tally.rate_limited = sender.rate_limited
        tally.paused_seconds = pacer.paused_seconds
        display.stop()
        if ctx.options.debug:
            ctx.ios.trace(
                f"bulk: {sender.gate.active} of {concurrency} workers sent at once "
                "(more only while the process waited: leadctl.bulk.workers)"
            )
        if report is not None:
            report.close()
        client.close()
    ctx.ios.info(summary(tally, words, resumed_from))
    if failure is not None and report_target not in (None, STDIN):
        ctx.ios.info(f"to go on: {words.resume_command} --resume {report_target}")
    finish(tally, words, report_target, failure, interrupted=sender.interrupted)


def progress_wanted(ctx: RequestInvocation) -> bool:
    return ctx.ios.progress_enabled and ctx.ios.env.get("TERM") != "dumb"


def _display(ctx: RequestInvocation, *, notes: bool, words: Words) -> Display:
    if progress_wanted(ctx):
        return ProgressDisplay(ctx.ios, notes=notes, noun=words.noun, label=words.doing)
    return Display(ctx.ios, notes=notes, noun=words.noun, label=words.doing)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def summary(tally: Tally, words: Words, resumed_from: str | None) -> str:
    text = (
        f"{plural(tally.sent, words.noun)} sent in {tally.elapsed:.1f}s ({tally.rate:.1f}/s): "
        f"{tally.succeeded} {words.done}, {tally.rejected} rejected, {tally.invalid} invalid, "
        f"{tally.unknown} unknown"
    )
    if tally.unsent:
        text += f", {tally.unsent} not sent again (the run stopped)"
    if tally.skipped:
        text += f", {tally.skipped} skipped (done in {resumed_from})"
    if tally.still_unknown:
        text += f", {tally.still_unknown} still unknown (in {resumed_from})"
    if tally.rate_limited:
        text += (
            f"; rate limited {plural(tally.rate_limited, 'time')}, "
            f"{tally.paused_seconds:.1f}s paused in all"
        )
    return text


def finish(
    tally: Tally,
    words: Words,
    report_target: str | None,
    failure: LeadctlError | None,
    *,
    interrupted: bool,
) -> None:
    kept = report_target not in (None, STDIN)
    where = f" (see {report_target})" if kept else ""
    resume_hint = (
        f"to go on: {words.resume_command} --resume {report_target}"
        if kept
        else "pass --report FILE next time to be able to resume"
    )
    stopped = ""
    if failure is not None:
        stopped = f"; {words.run} stopped early: {failure.message}"
    elif interrupted:
        stopped = f"; {words.run} was interrupted"
    if tally.unknown or tally.still_unknown:
        if tally.unknown:
            what = f"{plural(tally.unknown, words.noun)} with an unknown outcome{where}"
            if tally.still_unknown:
                what += f" (and {tally.still_unknown} from an earlier run, not sent again)"
        else:
            what = (
                f"{plural(tally.still_unknown, words.noun)} with an unknown outcome from an "
                f"earlier run{where}, not sent again"
            )
        raise BulkIncomplete(
            f"{what}: the service may or may not have acted on them{stopped}",
            exit_code=ExitCode.OUTCOME_UNKNOWN,
            hint=f"{words.check_hint}; --resume skips them (and exits 9) until "
            "--retry-unknown sends them again",
            tally=tally,
        )
    if interrupted:
        raise BulkInterrupted("interrupted", hint=resume_hint)
    if failure is not None:
        raise failure
    if tally.rejected or tally.invalid:
        raise BulkIncomplete(
            f"{plural(tally.rejected + tally.invalid, words.noun)} not {words.done}: "
            f"{tally.rejected} rejected, {tally.invalid} invalid{where}",
            exit_code=ExitCode.REJECTED,
            hint=f"correct them and send them again ({words.noun}s {words.done} so far are "
            f"skipped with --resume {report_target})"
            if kept
            else f"pass --report FILE to keep every {words.noun}'s outcome",
            tally=tally,
        )
