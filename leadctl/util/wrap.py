"""Messages broken at spaces to fit a terminal, never inside a token.

A terminal wraps a long line wherever the width ends (`pick col` / `umns`). Messages on a
terminal are broken at spaces instead. A token is never split: a word, a cursor, a URL,
or a command quoted in backticks (spaces included, so it still pastes as one line); a
token wider than the terminal gets a line of its own. Escape sequences (a dim line) take
no width.
"""

from __future__ import annotations

import re

# A run of non-space text, where a `quoted command` counts as one piece spaces and all.
_TOKEN = re.compile(r"(?:[^\s`]*`[^`\n]*`)+[^\s`]*|\S+")
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(text: str) -> int:
    return len(_SGR.sub("", text))


def wrap_at_spaces(text: str, width: int) -> str:
    """``text`` with each line broken at spaces to at most ``width`` columns where its
    tokens allow; continuation lines keep the line's indentation."""
    return "\n".join(_wrap_line(line, width) for line in text.split("\n"))


def _wrap_line(line: str, width: int) -> str:
    if visible_width(line) <= width:
        return line
    indent = line[: len(line) - len(line.lstrip(" "))]
    lines: list[str] = []
    current = ""
    for token in _TOKEN.findall(line):
        if not current:
            current = indent + token
        elif visible_width(current) + 1 + visible_width(token) <= width:
            current += " " + token
        else:
            lines.append(current)
            current = indent + token
    lines.append(current)
    return "\n".join(lines)
