"""Help text as Click keeps it, taken apart for completion descriptions and man pages."""

from __future__ import annotations

import re

from leadctl.cli.helpformat import EXAMPLES_HEADING

__all__ = ["EXAMPLES_HEADING", "paragraphs", "split_examples", "summary"]

SUMMARY_LIMIT = 72


def paragraphs(text: str) -> list[str]:
    """Blocks of text separated by blank lines, each with its line breaks kept."""
    blocks = re.split(r"\n\s*\n", text.strip())
    return [block for block in blocks if block.strip()]


def summary(text: str) -> str:
    """The first sentence, on one line and at most SUMMARY_LIMIT characters."""
    if not text.strip():
        return ""
    first = " ".join(paragraphs(text)[0].split())
    first = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0].rstrip(".")
    if len(first) <= SUMMARY_LIMIT:
        return first
    cut = first[: SUMMARY_LIMIT - 3].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "..."


def split_examples(epilog: str) -> tuple[str, list[str]]:
    """The epilog without its "Examples:" part, and that part's command lines."""
    lines = epilog.splitlines()
    for index, line in enumerate(lines):
        if EXAMPLES_HEADING.match(line):
            examples = [example.strip() for example in lines[index + 1 :] if example.strip()]
            return "\n".join(lines[:index]).strip(), examples
    return epilog.strip(), []
