"""Text to man(7) roff: escaping, paragraphs and sentence-per-line prose."""

from __future__ import annotations

import re
import textwrap

# mandoc -Tlint asks for input lines of at most 80 bytes.
WIDTH = 78
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")


def escape(text: str) -> str:
    """Plain text safe inside a roff line; hyphens become minus signs so that options
    and commands copied from the rendered page still work."""
    out = text.replace("\\", "\\e").replace("-", "\\-")
    return "".join(ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]" for ch in out)


def line(text: str) -> str:
    """One input line; a leading . or ' would be read as a request."""
    escaped = escape(text)
    return "\\&" + escaped if escaped[:1] in (".", "'") else escaped


def bold(text: str) -> str:
    return f"\\fB{escape(text)}\\fR"


def italic(text: str) -> str:
    return f"\\fI{escape(text)}\\fR"


def prose(text: str) -> list[str]:
    """A paragraph re-flowed: each sentence starts a line, as roff wants, and long
    sentences continue on the next lines."""
    flowed = " ".join(text.split())
    lines: list[str] = []
    for sentence in _SENTENCE_END.split(flowed):
        escaped = [
            line(part) for part in textwrap.wrap(sentence, WIDTH - 8, break_on_hyphens=False)
        ]
        lines += escaped
    return lines


def preformatted(lines: list[str]) -> list[str]:
    """Lines kept as they are, indented: examples and lists."""
    return [".RS 4", ".nf", *(line(text) for text in lines), ".fi", ".RE"]


def is_preformatted(block: str) -> bool:
    """Click's no-rewrap marker, or a block whose every line is indented."""
    lines = block.splitlines()
    return lines[0].strip() == "\b" or all(text.startswith((" ", "\t")) for text in lines)


def block(text: str) -> list[str]:
    """One paragraph of help text."""
    lines = [text for text in text.splitlines() if text.strip() != "\b"]
    if is_preformatted(text):
        return [".PP", *preformatted([text.strip() for text in lines])]
    return [".PP", *prose(text)]


def tidy(lines: list[str]) -> str:
    """The page text, without paragraph macros where a heading already starts one."""
    kept: list[str] = []
    for text in lines:
        if text == ".PP" and kept and kept[-1].startswith((".SH", ".SS", ".PP")):
            continue
        kept.append(text)
    return "\n".join(kept) + "\n"
