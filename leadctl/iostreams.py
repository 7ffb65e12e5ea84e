"""Every terminal decision: TTY flags, color, pager, prompts, informational messages, and
what text from outside may reach a terminal.

Commands never touch ``sys.stdout`` directly; they get an :class:`IOStreams` from the
context, and tests build one with :meth:`IOStreams.for_test` and a chosen TTY state.

Text that a service, a contract or an authorization server wrote reaches a terminal only
through :func:`safe_text` (:mod:`leadctl.util.safetext`): on stderr always (every message
method here applies it; a log read later is read on a terminal too), on stdout when it is
a terminal (:meth:`IOStreams.data_out`). JSON stays JSON (:func:`safe_json`).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal, Protocol, TextIO, cast

from leadctl.errors import Cancelled, UsageError
from leadctl.util.safetext import safe_json, safe_text

__all__ = ["DEFAULT_PAGER", "IOStreams", "color_wanted", "safe_json", "safe_text"]

if TYPE_CHECKING:
    from rich.console import Console

DEFAULT_PAGER = "less -FRX"


def _is_tty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty else False
    except (ValueError, OSError):
        return False


def color_wanted(*, is_tty: bool, no_color_flag: bool, env: Mapping[str, str]) -> bool:
    """Colors for one stream: --no-color, NO_COLOR, CLICOLOR_FORCE or FORCE_COLOR, CLICOLOR=0,
    TERM=dumb, TTY, in that order (gh's reading of the CLICOLOR convention: NO_COLOR wins
    over CLICOLOR_FORCE, which colors a pipe too)."""
    if no_color_flag or env.get("NO_COLOR"):
        return False
    for force in ("CLICOLOR_FORCE", "FORCE_COLOR"):
        if env.get(force) not in (None, "", "0"):
            return True
    if env.get("CLICOLOR") == "0" or env.get("TERM") == "dumb":
        return False
    return is_tty


def _closed_at_start(fd: int, mode: str) -> TextIO:
    """/dev/null on a standard descriptor the process was started without: a file leadctl
    opens later (a report, a credential) must never take the number 0, 1 or 2, where a
    child process or a stray write would reach it."""
    devnull = os.open(os.devnull, os.O_RDWR)
    if devnull != fd:
        os.dup2(devnull, fd)
        os.close(devnull)
    return cast(TextIO, open(fd, mode, encoding="utf-8", closefd=False))


class StatusLine(Protocol):
    def write_above(self, text: str) -> None: ...


class SafeWriter(io.TextIOBase):
    """A stream that passes every write through ``clean`` first: data bound for a
    terminal (csv, value, --jq, raw bodies) keeps its layout and loses its escapes."""

    def __init__(self, stream: TextIO, clean: Callable[[str], str]) -> None:
        self._stream = stream
        self._clean = clean

    def write(self, text: str) -> int:
        self._stream.write(self._clean(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._stream.fileno()


class IOStreams:
    """The three streams and what is known about them (a plain class: loaded at every
    start-up, where a dataclass's generated methods cost about a millisecond)."""

    def __init__(
        self,
        *,
        stdin: TextIO,
        stdout: TextIO,
        stderr: TextIO,
        stdin_is_tty: bool,
        stdout_is_tty: bool,
        stderr_is_tty: bool,
        env: Mapping[str, str] | None = None,
        no_color: bool = False,
        no_input: bool = False,
        quiet: bool = False,
        pager_override: str | None = None,
    ) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.stdin_is_tty = stdin_is_tty
        self.stdout_is_tty = stdout_is_tty
        self.stderr_is_tty = stderr_is_tty
        self.env: Mapping[str, str] = {} if env is None else env
        self.no_color = no_color
        self.no_input = no_input
        self.quiet = quiet
        # Set by tests to capture what would have gone to the pager without running one.
        self.pager_override = pager_override
        # Set when what stdout gets is cut short (Ctrl-C in `--all`): a partial list is
        # never paged, so the note saying where to resume stays in view.
        self.no_pager = False
        # A progress line being redrawn on stderr (``--all``): every message is written
        # through it, so the line is erased first and the message gets a line of its own.
        self.status_line: StatusLine | None = None
        # Started with stdout closed (`>&-`): a command refuses to run (exit 2) rather
        # than do its work and lose what it printed.
        self.stdout_closed = False

    @classmethod
    def system(cls, *, env: Mapping[str, str] | None = None) -> IOStreams:
        stdin = sys.stdin or _closed_at_start(0, "r")
        stdout = sys.stdout or _closed_at_start(1, "w")
        stderr = sys.stderr or _closed_at_start(2, "w")
        for stream in (stdout, stderr):
            # A lone surrogate (JSON's "\ud800", an undecodable byte of an input file)
            # is written in its escaped spelling rather than failing the whole output:
            # inside JSON text that spelling is the same value.
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="backslashreplace")
        ios = cls(
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            stdin_is_tty=_is_tty(stdin),
            stdout_is_tty=_is_tty(stdout),
            stderr_is_tty=_is_tty(stderr),
            env=os.environ if env is None else env,
        )
        ios.stdout_closed = sys.stdout is None
        return ios

    @classmethod
    def for_test(
        cls,
        *,
        stdin: str = "",
        tty: bool = False,
        stdin_tty: bool | None = None,
        stdout_tty: bool | None = None,
        stderr_tty: bool | None = None,
        env: Mapping[str, str] | None = None,
    ) -> IOStreams:
        """Fake streams (``io.StringIO``) with the TTY state a test wants."""
        return cls(
            stdin=io.StringIO(stdin),
            stdout=io.StringIO(),
            stderr=io.StringIO(),
            stdin_is_tty=tty if stdin_tty is None else stdin_tty,
            stdout_is_tty=tty if stdout_tty is None else stdout_tty,
            stderr_is_tty=tty if stderr_tty is None else stderr_tty,
            env=dict(env or {}),
        )

    # -- decisions -------------------------------------------------------------------

    @property
    def stdout_color(self) -> bool:
        return color_wanted(is_tty=self.stdout_is_tty, no_color_flag=self.no_color, env=self.env)

    @property
    def stderr_color(self) -> bool:
        return color_wanted(is_tty=self.stderr_is_tty, no_color_flag=self.no_color, env=self.env)

    @property
    def can_prompt(self) -> bool:
        """Prompts need a person: stdin and stderr on a terminal, and no --no-input."""
        return self.stdin_is_tty and self.stderr_is_tty and not self.no_input

    @property
    def progress_enabled(self) -> bool:
        return self.stderr_is_tty and not self.quiet

    def terminal_width(self) -> int:
        return self._terminal_size("COLUMNS", 0, 80)

    def terminal_height(self) -> int:
        return self._terminal_size("LINES", 1, 24)

    def _terminal_size(
        self, variable: str, index: int, fallback: int, stream: TextIO | None = None
    ) -> int:
        """From the environment, else the terminal of ``stream`` (stdout unless told); a
        terminal reporting 0 gets the fallback."""
        configured = self.env.get(variable, "")
        if configured.isdigit() and int(configured) > 0:
            return int(configured)
        try:
            measured = os.get_terminal_size((stream or self.stdout).fileno())[index]
        except (OSError, ValueError, io.UnsupportedOperation):
            return fallback
        return measured if measured > 0 else fallback

    def pager_command(self) -> str | None:
        """The pager for long table output, or None when stdout is not a terminal."""
        if not self.stdout_is_tty or self.no_pager or self.env.get("TERM") == "dumb":
            return None
        if self.pager_override is not None:
            return self.pager_override
        command = self.env.get("LEADCTL_PAGER", self.env.get("PAGER", DEFAULT_PAGER))
        if command.strip() in ("", "cat"):
            return None
        return command

    def console(
        self, *, stderr: bool = False, file: TextIO | None = None, width: int | None = None
    ) -> Console:
        """The rich Console for stdout (or ``stderr``), every terminal decision taken here.

        ``file`` receives the drawing instead of the stream (a buffer, to page it), with
        the stream's decisions. Color comes from :attr:`stdout_color` / :attr:`stderr_color`
        and the color system from this object's ``env``, never from rich's own look at
        ``os.environ``: with color off rich gets no color system at all, so it writes no
        escape sequence for styles. ``width`` defaults to the terminal's (``COLUMNS``
        first). Markup, emoji and highlighting are off: the service's text is data, and a
        lead named ``[bold]:smile:`` prints as typed. Only a terminal gets live drawing
        (progress bars, spinners) and cursor control.
        """
        from rich.console import Console

        stream = self.stderr if stderr else self.stdout
        is_tty = self.stderr_is_tty if stderr else self.stdout_is_tty
        color = self.stderr_color if stderr else self.stdout_color
        system: Literal["truecolor", "256", "standard"] = "standard"
        if self.env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
            system = "truecolor"
        elif "256color" in self.env.get("TERM", ""):
            system = "256"
        return Console(
            file=stream if file is None else file,
            width=self._terminal_size("COLUMNS", 0, 80, stream) if width is None else width,
            height=self._terminal_size("LINES", 1, 24, stream),
            color_system=system if color else None,
            no_color=not color,
            force_terminal=is_tty,
            force_interactive=is_tty and self.env.get("TERM") != "dumb",
            force_jupyter=False,
            legacy_windows=False,
            markup=False,
            emoji=False,
            highlight=False,
        )

    # -- writing ---------------------------------------------------------------------

    def data_out(self, *, json: bool = False) -> TextIO:
        """Where a command writes data: stdout, made safe when it is a terminal (JSON
        with JSON's own escapes, so it still parses); a pipe or file gets the bytes as
        received."""
        if not self.stdout_is_tty:
            return self.stdout
        return cast(TextIO, SafeWriter(self.stdout, safe_json if json else safe_text))

    def info(self, message: str, *, dim: bool = False) -> None:
        """An informational line on stderr, silenced by -q (``dim``: drawn faint where
        stderr has color, for a note under a table)."""
        if not self.quiet:
            text = self.fit_stderr(safe_text(message))
            if dim and self.stderr_color:
                text = f"\x1b[2m{text}\x1b[0m"
            self._write_message(text + "\n")

    def warn(self, message: str) -> None:
        """A warning on stderr; -q does not silence warnings about credentials."""
        self._message(self.fit_stderr(f"warning: {message}") + "\n")

    def fit_stderr(self, text: str) -> str:
        """``text`` broken at spaces to the width of stderr when that is a terminal (where
        the terminal would break it mid-word); unchanged for a file or pipe."""
        if not self.stderr_is_tty:
            return text
        from leadctl.util.wrap import wrap_at_spaces

        return wrap_at_spaces(text, self._terminal_size("COLUMNS", 0, 80, self.stderr))

    def say(self, message: str) -> None:
        """A line on stderr that the user needs to go on (a sign-in code): even under -q."""
        self._message(message + "\n")

    def trace(self, line: str) -> None:
        """One line of the --debug trace on stderr: requests, headers, bodies."""
        self._message(line + "\n")

    def _message(self, text: str) -> None:
        self._write_message(safe_text(text))

    def _write_message(self, text: str) -> None:
        if self.status_line is not None:
            self.status_line.write_above(text)
            return
        self.stderr.write(text)
        self.stderr.flush()

    @contextlib.contextmanager
    def paged_stdout(self) -> Iterator[TextIO]:
        """stdout, or the stdin of the pager when stdout is a terminal and a pager is set."""
        command = self.pager_command()
        if command is None:
            yield self.stdout
            return
        import shlex  # here, not at the top: only a paged table needs it (--help does not)

        from leadctl.config.child_env import child_environment

        env = child_environment(self.env)
        env.setdefault("LESS", "FRX")
        try:
            proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, env=env, text=True, encoding="utf-8"
            )
        except OSError:
            yield self.stdout
            return
        assert proc.stdin is not None
        try:
            yield cast(TextIO, proc.stdin)
        except BrokenPipeError:
            pass  # the user quit the pager early; that is not an error
        finally:
            with contextlib.suppress(BrokenPipeError):
                proc.stdin.close()
            proc.wait()

    # -- prompting -------------------------------------------------------------------

    def confirm(self, question: str, *, assume_yes: bool) -> None:
        """Ask before a destructive or secret-changing action; exit 10 on no.

        Without a terminal the user must pass --yes: a script never blocks on a prompt.
        """
        if assume_yes:
            return
        if not self.can_prompt:
            raise UsageError(
                f"{question.rstrip('?')}: confirmation needed",
                hint="pass --yes to confirm when not running on a terminal",
            )
        self.stderr.write(f"{safe_text(question, one_line=True)} [y/N]: ")
        self.stderr.flush()
        answer = self.stdin.readline().strip().lower()
        if answer not in ("y", "yes"):
            raise Cancelled("cancelled")

    def prompt_line(self, prompt: str) -> str:
        """Read one line typed on the terminal (shown as typed); stripped."""
        self.stderr.write(prompt)
        self.stderr.flush()
        line = self.stdin.readline()
        if not line:
            raise Cancelled("cancelled")  # end of input (Ctrl-D) at the prompt
        return line.strip()

    def prompt_secret(self, prompt: str) -> str:
        """Read a secret without echo from the terminal."""
        if not self.can_prompt:
            raise UsageError(
                "cannot prompt for the credential: stdin is not a terminal",
                hint="pipe it in with --with-token",
            )
        import getpass

        return getpass.getpass(prompt, stream=self.stderr)
