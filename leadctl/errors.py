"""Exit codes and the typed errors that carry them.

Every failure leadctl reports is one of these classes; ``app.py`` turns them into the
one-line message (or JSON object) and the exit code, in one place.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    OK = 0
    UNEXPECTED = 1
    USAGE = 2
    NOT_AUTHENTICATED = 3
    FORBIDDEN = 4
    NOT_FOUND = 5
    REJECTED = 6
    RATE_LIMITED = 7
    SERVICE_FAILURE = 8
    OUTCOME_UNKNOWN = 9
    CANCELLED = 10
    INTERRUPTED = 130


class LeadctlError(Exception):
    """A failure with a message meant for the user and a fixed exit code."""

    exit_code: ExitCode = ExitCode.UNEXPECTED

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def detail_lines(self) -> list[str]:
        """Lines printed after ``error: <message>`` (field errors, hints, trace id)."""
        return [self.hint] if self.hint else []

    def to_json(self) -> dict[str, Any]:
        """The JSON error object printed on stderr under ``-o json``."""
        body: dict[str, Any] = {"title": type(self).__name__, "detail": self.message}
        if self.hint:
            body["hint"] = self.hint
        body["exitCode"] = int(self.exit_code)
        return body


class DryRunDone(LeadctlError):
    """--dry-run printed the request; the command stops there and exits 0."""

    exit_code = ExitCode.OK


class UsageError(LeadctlError):
    """Bad input caught before anything was sent."""

    exit_code = ExitCode.USAGE


class NotAuthenticated(LeadctlError):
    exit_code = ExitCode.NOT_AUTHENTICATED


class KeyringUnavailable(NotAuthenticated):
    """The OS keyring is missing, locked, failing or too slow."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"the OS keyring is not usable: {reason}",
            hint=(
                "set LEADCTL_TOKEN (or LEADCTL_TOKEN_FILE) for this shell, or store the "
                "credential in a 0600 file with `leadctl auth login --insecure-storage`"
            ),
        )


class Forbidden(LeadctlError):
    exit_code = ExitCode.FORBIDDEN


class NotFound(LeadctlError):
    exit_code = ExitCode.NOT_FOUND


class Cancelled(LeadctlError):
    exit_code = ExitCode.CANCELLED


class ServiceFailure(LeadctlError):
    """5xx, a connection failure or a timeout that outlasted the retry budget."""

    exit_code = ExitCode.SERVICE_FAILURE


class OutcomeUnknown(LeadctlError):
    """A non-retry-safe request was sent and its outcome could not be learned."""

    exit_code = ExitCode.OUTCOME_UNKNOWN


class BadResponse(LeadctlError):
    """The service answered 2xx with a body leadctl cannot use."""

    exit_code = ExitCode.SERVICE_FAILURE


_EXIT_BY_STATUS: dict[int, ExitCode] = {
    400: ExitCode.REJECTED,
    401: ExitCode.NOT_AUTHENTICATED,
    403: ExitCode.FORBIDDEN,
    404: ExitCode.NOT_FOUND,
    429: ExitCode.RATE_LIMITED,
}


def exit_code_for_status(status: int) -> ExitCode:
    """The exit code of cli.md for an HTTP error status."""
    if status in _EXIT_BY_STATUS:
        return _EXIT_BY_STATUS[status]
    if status >= 500:
        return ExitCode.SERVICE_FAILURE
    if 400 <= status < 500:
        return ExitCode.REJECTED
    return ExitCode.UNEXPECTED


class ApiError(LeadctlError):
    """An error status from the service, with its problem+json body when it sent one."""

    def __init__(
        self,
        status: int,
        *,
        title: str | None = None,
        detail: str | None = None,
        field_errors: dict[str, list[str]] | None = None,
        trace_id: str | None = None,
        problem: dict[str, Any] | None = None,
        hint: str | None = None,
    ) -> None:
        self.status = status
        self.title = title
        self.detail = detail
        self.field_errors = field_errors or {}
        self.trace_id = trace_id
        self.problem = problem
        self.exit_code = exit_code_for_status(status)
        # How many times the request was sent before this answer (retries included).
        self.attempts = 1
        # Seconds a 429 asked the client to wait (Retry-After), when it said.
        self.retry_after: float | None = None
        # A 401's WWW-Authenticate challenge (error="invalid_token" allows one refresh).
        self.challenge: str | None = None
        super().__init__(self._headline(), hint=hint)

    def _headline(self) -> str:
        parts = [f"{self.status}"]
        if self.title:
            parts.append(self.title)
        text = " ".join(parts)
        if self.detail and self.detail != self.title:
            text = f"{text}: {self.detail}"
        return text

    def detail_lines(self) -> list[str]:
        lines = [
            f"  {field}: {message}"
            for field, messages in self.field_errors.items()
            for message in messages
        ]
        if self.hint:
            lines.append(self.hint)
        if self.trace_id:
            lines.append(f"trace id: {self.trace_id}")
        return lines

    def problem_document(self) -> dict[str, Any]:
        """The service's problem document as received, with status, title and detail filled
        in when the answer had none (a bulk report's error column, the -o json error)."""
        body: dict[str, Any] = dict(self.problem) if self.problem else {}
        body.setdefault("status", self.status)
        if self.title is not None:
            body.setdefault("title", self.title)
        if self.detail is not None:
            body.setdefault("detail", self.detail)
        return body

    def to_json(self) -> dict[str, Any]:
        body = self.problem_document()
        if self.hint:
            # What leadctl adds (retries spent, where to resume), as in the text form.
            body.setdefault("hint", self.hint)
        body["exitCode"] = int(self.exit_code)
        return body
