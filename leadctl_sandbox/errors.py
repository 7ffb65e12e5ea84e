"""The sandbox's own errors; the one entry point in leadctl turns them into its exit codes."""

from __future__ import annotations


class SandboxError(Exception):
    """A failure to report as one line (and a hint), never as a traceback."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class SandboxUsageError(SandboxError):
    """Bad input from whoever started the sandbox (exit 2 in leadctl)."""
