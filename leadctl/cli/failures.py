"""A failed command's message and exit code, in one place.

Loaded by the root's ``invoke`` only when a command raised: a success, ``--help`` included,
never pays for the hints, the picker or the redaction it needs.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from leadctl.cli.hints import carry_profile, fit_hint
from leadctl.cli.picker import can_pick, pick_missing_argument
from leadctl.cli.suggest import JSON_WITHOUT_FIELDS, option_intent
from leadctl.config.redact import mask_secrets, redact_text
from leadctl.errors import ExitCode, LeadctlError, UsageError
from leadctl.formats import AS_RECEIVED
from leadctl.iostreams import IOStreams, safe_json, safe_text

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Invocation:
    """What the failed invocation had: its streams and environment, and its Context when
    the root callback got as far as building one."""

    ios: IOStreams
    env: Mapping[str, str]
    context: Context | None
    # -p as typed, known before the Context exists (a mistyped verb fails before it).
    typed_profile: str | None
    # --debug typed on the line: a failure while the command tree was built (a verb's
    # module that does not load) comes before the root callback has read it.
    debug_on_line: bool = False


def exit_code_of(error: Exception, run: Invocation, *, rerun: Callable[[str], int]) -> int:
    """Say what failed on stderr and return the exit code; ``rerun`` runs the line again
    with an argument Click found missing, once one was picked on the terminal."""
    if isinstance(error, LeadctlError):
        return report(error, run)
    try:
        picked = _picked_argument(error, run.context)
    except LeadctlError as failed:  # the list read failed: say why, as any command would
        return report(failed, run)
    except KeyboardInterrupt:
        run.ios.stderr.write("interrupted\n")
        return int(ExitCode.INTERRUPTED)
    if picked is not None:
        return rerun(picked)
    if isinstance(error, typer.TyperException):
        # Typer's public base of Click's own errors (usage errors, exit 2, and the rest).
        usage = _intent_of(error) or UsageError(
            error.format_message(), hint="run with --help for usage"
        )
        return report_error(usage, run.ios, as_json=_json_errors_wanted(run))
    if _debug_wanted(run):
        trace = "".join(traceback.format_exception(error))
        run.ios.trace(redact_text(trace, _known_secrets(run.context)).rstrip("\n"))
    run.ios.stderr.write(
        f"error: unexpected {type(error).__name__}; run with --debug for a traceback\n"
    )
    return int(ExitCode.UNEXPECTED)


def _debug_wanted(run: Invocation) -> bool:
    """--debug or LEADCTL_DEBUG, as the Context reads them (cli/invocation.py), also when
    the failure came before there was a Context, or before a --debug typed after the verb
    was parsed (the verb's module is loaded when its group looks it up)."""
    if run.debug_on_line:
        return True
    if run.context is not None:
        return run.context.options.debug
    return run.debug_on_line or run.env.get("LEADCTL_DEBUG", "") not in ("", "0")


def _intent_of(error: Exception) -> UsageError | None:
    """The one-line answer for an option of another CLI (aws's --query, gh's --web)."""
    # Click's NoSuchOption and BadOptionUsage, which Typer (carrying its own Click) does
    # not export.
    kind, option = type(error).__name__, str(getattr(error, "option_name", ""))
    if kind == "NoSuchOption":
        return option_intent(option)
    if kind == "BadOptionUsage" and option == "--json":
        return UsageError(JSON_WITHOUT_FIELDS)
    return None


def report(error: LeadctlError, run: Invocation) -> int:
    """leadctl's own error: its message (as JSON for a program that asked for JSON), with
    the hint that fits, the credential masked."""
    carry_profile(error, run.context, typed_profile=run.typed_profile)
    as_json = _json_errors_wanted(run)
    if not as_json:
        fit_hint(error, run.ios)
    return report_error(error, run.ios, as_json=as_json, secrets=_known_secrets(run.context))


def report_error(
    error: LeadctlError, ios: IOStreams, *, as_json: bool, secrets: Sequence[str] = ()
) -> int:
    # The message quotes the service's words (title, detail, field errors, trace id):
    # whatever they hold is shown, never acted on by the terminal.
    if as_json:
        text = safe_json(json.dumps(error.to_json(), ensure_ascii=False)) + "\n"
    else:
        lines = [f"error: {error.message}", *error.detail_lines()]
        text = "".join(f"{safe_text(line)}\n" for line in lines)
    if secrets:
        # A service or proxy may quote the credential back in its error, in any form.
        text = mask_secrets(text, secrets)
    ios.stderr.write(text)
    ios.stderr.flush()
    return int(error.exit_code)


def _json_errors_wanted(run: Invocation) -> bool:
    """The error as one JSON object: for a program that asked for JSON output, never for a
    person reading stderr on a terminal."""
    if run.ios.stderr_is_tty:
        return False
    if run.context is not None:
        return run.context.output_explicit and run.context.output_format in AS_RECEIVED
    return run.env.get("LEADCTL_OUTPUT") in AS_RECEIVED


def _known_secrets(context: Context | None) -> tuple[str, ...]:
    """The credential, if this invocation already looked it up."""
    found = context.looked_up_credential() if context is not None else None
    return (found.value,) if found is not None and found.value else ()


def _is_missing(error: BaseException) -> bool:
    """Click's MissingParameter, which Typer does not export: it is the one subclass of
    the public ``typer.BadParameter`` (raised as it is for a value that does not convert)."""
    return isinstance(error, typer.BadParameter) and type(error) is not typer.BadParameter


def _picked_argument(error: BaseException, context: Context | None) -> str | None:
    """A value picked on the terminal for an argument Click found missing, if one applies."""
    param = getattr(error, "param", None)
    click_ctx = getattr(error, "ctx", None)
    if (
        not _is_missing(error)
        or getattr(param, "param_type_name", None) != "argument"
        or click_ctx is None
        or context is None
        or not can_pick(context)
    ):
        return None
    return pick_missing_argument(context, click_ctx, param)
