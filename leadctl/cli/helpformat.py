"""--help laid out for copy and paste.

Click wraps help at 80 columns and breaks words at hyphens, so a flag such as
``--appointment-end-at`` could end up split over two lines, and shows a required argument as
``{ID}``. Here help fills the terminal it is shown on (the width comes from ``app.invoke``),
prose breaks only between words, and an example is one command line: it is never re-wrapped
and, when it is wider than the terminal, continues on the next line after a `` \\``
(between two words, never inside one), so it still pastes into a shell as one command.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer

from leadctl.cli import help_cache
from leadctl.iostreams import safe_text

if TYPE_CHECKING:
    from typer._click.formatting import HelpFormatter as _ClickFormatter
else:
    # Typer vendors Click privately; its formatter class is reached through the public Context.
    _ClickFormatter = typer.Context.formatter_class

EXAMPLES_HEADING = re.compile(r"^\s*examples?:\s*$", re.IGNORECASE)
RAW_BLOCK = "\b"
EXAMPLE_INDENT = 2
CONTINUATION_INDENT = 4
# A shell word: quoted parts, escapes and plain characters up to unquoted whitespace.
_SHELL_WORD = re.compile(r"""(?:'[^']*'|"(?:\\.|[^"\\])*"|\\.|[^\s'"\\])+""")
# Typer shows a required argument as {ID}, or {name} without a metavar; Click's convention
# (and man pages') is ID and NAME, [NAME] when optional.
_REQUIRED_ARGUMENT = re.compile(r"\{([^{}\s]+)\}")
_BARE_NAME = re.compile(r"(?<=\[)([a-z_][a-z0-9_]*)(?=\])|^([a-z_][a-z0-9_]*)$")


def shell_words(line: str) -> list[str]:
    """The words of a command line, quotes kept; plain split when the quoting is broken."""
    words: list[str] = []
    end = 0
    for match in _SHELL_WORD.finditer(line):
        if line[end : match.start()].strip():
            return line.split()  # an unclosed quote: no word boundaries to trust
        words.append(match.group())
        end = match.end()
    return words if not line[end:].strip() else line.split()


def wrap_command(line: str, width: int) -> list[str]:
    """``line`` as shell lines of at most ``width`` columns where words allow, joined by
    `` \\`` continuations; a word is never split."""
    lines: list[str] = []
    current = ""
    for word in _units(shell_words(line.strip())):
        candidate = f"{current} {word}" if current else word
        # Room for the " \" that ends every line but the last.
        if current and len(candidate) + 2 > width:
            lines.append(current + " \\")
            current = " " * CONTINUATION_INDENT + word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def _units(words: list[str]) -> list[str]:
    """Words that stay on one line together: an option and its value, a pipe and its
    command."""
    units: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else None
        if following is not None and (
            word == "|"
            or (word.startswith("-") and not following.startswith("-") and following != "|")
        ):
            units.append(f"{word} {following}")
            index += 2
        else:
            units.append(word)
            index += 1
    return units


def wrap_prose(text: str, width: int, indent: str) -> str:
    """Click's paragraph wrapping (``\\b`` blocks kept as they are), breaking only at spaces."""
    paragraphs: list[tuple[int, bool, list[str]]] = []
    block: list[str] = []
    block_indent = 0

    def flush() -> None:
        if block:
            raw = block[0].strip() == RAW_BLOCK
            paragraphs.append((block_indent, raw, block[1:] if raw else list(block)))
            block.clear()

    for line in text.expandtabs().splitlines():
        if not line.strip():
            flush()
            continue
        if not block:
            block_indent = len(line) - len(line.lstrip())
            line = line.lstrip()
        block.append(line)
    flush()
    out = []
    for extra, raw, lines in paragraphs:
        prefix = indent + " " * extra
        if raw:
            out.append("\n".join(_raw_line(prefix + line, width) for line in lines))
            continue
        joined = " ".join(lines).rstrip()
        if len(prefix) + len(joined) <= width:
            # What textwrap would return for a paragraph that fits, without its cost:
            # most help lines are one short sentence, and --help wraps dozens of them.
            out.append(prefix + joined)
            continue
        out.append(
            textwrap.fill(
                joined,
                max(width, len(prefix) + 10),
                initial_indent=prefix,
                subsequent_indent=prefix,
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return "\n\n".join(out)


def _raw_line(line: str, width: int) -> str:
    """A line of a ``\\b`` block as it is when it fits; a longer one (a field and its
    description) breaks between words, continued under its text with a hanging indent,
    rather than running past the terminal's edge."""
    if len(line) <= width:
        return line
    lead = " " * (len(line) - len(line.lstrip()))
    return textwrap.fill(
        line.strip(),
        max(width, len(lead) + 20),
        initial_indent=lead,
        subsequent_indent=lead + " " * CONTINUATION_INDENT,
        break_on_hyphens=False,
        break_long_words=False,
    )


def usage_word(word: str) -> str:
    """One word of a usage line the way Click writes it: ID for {ID}, NAME for {name}."""
    required = _REQUIRED_ARGUMENT.fullmatch(word)
    if required:
        word = required.group(1)
    return _BARE_NAME.sub(lambda match: match.group(0).upper(), word)


class HelpFormatter(_ClickFormatter):
    def write(self, string: str) -> None:
        # Generated commands' help quotes the service's contract: whatever reached this far
        # unescaped (a name, a value) is shown, never acted on by the terminal.
        super().write(safe_text(string))

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, " ".join(usage_word(word) for word in args.split(" ")), prefix)

    def write_dl(
        self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        # Click's layout of option and command lists, wrapping as wrap_prose does.
        rows = list(rows)
        if not rows:
            return
        first_col = min(max(len(first) for first, _ in rows), col_max) + col_spacing
        hanging = " " * (first_col + self.current_indent)
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if len(first) <= first_col - col_spacing:
                self.write(" " * (first_col - len(first)))
            else:
                self.write("\n" + hanging)
            lines = wrap_prose(second, max(self.width - first_col - 2, 10), "").splitlines()
            self.write((lines[0] if lines else "") + "\n")
            for line in lines[1:]:
                self.write(f"{hanging}{line}\n" if line else "\n")

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        lines = text.splitlines()
        heading = next((i for i, line in enumerate(lines) if EXAMPLES_HEADING.match(line)), None)
        prose = "\n".join(lines if heading is None else lines[:heading])
        if prose.strip():
            self.write(wrap_prose(prose, self.width, indent) + "\n")
        if heading is None:
            return
        if prose.strip():
            self.write("\n")
        self.write(f"{indent}{lines[heading].strip()}\n")
        example_indent = indent + " " * EXAMPLE_INDENT
        room = self.width - len(example_indent)
        for example in (line for line in lines[heading + 1 :] if line.strip()):
            self.write("\n")
            for shell_line in wrap_command(example, room):
                self.write(f"{example_indent}{shell_line}\n")


class HelpContext(typer.Context):
    """The Context leadctl's commands are invoked with: it formats help as above."""

    formatter_class = HelpFormatter

    def get_help(self) -> str:
        page = super().get_help()
        # The help cache keeps a run's output only when it is this page (cli/help_cache).
        help_cache.rendered(page)
        return page


def use_leadctl_help(command: Any) -> None:
    """Help of ``command`` laid out by :class:`HelpFormatter`; its summary in a group's
    list is its whole first sentence (Click would cut it to fit one line)."""
    command.context_class = HelpContext
    if not getattr(command, "short_help", None) and getattr(command, "help", None):
        command.short_help = first_sentence(command.help)


def first_sentence(text: str) -> str:
    """The first sentence of a help text, on one line (Click would cut it to fit)."""
    first = " ".join(text.split("\f", 1)[0].strip().split("\n\n", 1)[0].split())
    return re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0]
