"""Which columns of a table fit a terminal, and how wide each one is.

The rules of cli.md: identifiers, phone numbers, times and other short codes are never
cut (a shortened id cannot be copied); long free text is shortened instead; a column the
user asked for with ``--columns`` is never left out; of the default columns, taken from
the left (a command lists them most wanted first), those that do not fit are left out,
and the caller says which. Kept apart from rich so the rules can
be read and tested on plain numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

# Free text is never squeezed below this (or its header): fewer characters say nothing.
MIN_FREE_WIDTH = 12
# A value without spaces up to this long reads as one token (an id, a URL, a code) and is
# kept whole; a value with spaces up to SHORT_LABEL long is a label (a status such as "Not
# interested", a state, a name) and is kept whole too. Anything longer is free text.
LONG_TOKEN = 64
SHORT_LABEL = 24
GAP = 2


@dataclass(frozen=True)
class FitColumn:
    title: str
    widths: Sequence[int]  # the display width of each cell
    keep_whole: bool
    required: bool = False

    @property
    def natural(self) -> int:
        return max([len(self.title), *self.widths])

    @property
    def floor(self) -> int:
        if self.keep_whole:
            return self.natural
        return min(self.natural, max(MIN_FREE_WIDTH, len(self.title)))


@dataclass
class Fit:
    shown: list[int]  # indices of the columns shown, in order
    widths: dict[int, int] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)  # titles of the columns left out
    # Even the required columns, whole, are wider than the terminal.
    too_wide: bool = False


def is_free_text(texts: Sequence[str]) -> bool:
    return any(
        len(text) > LONG_TOKEN or (len(text) > SHORT_LABEL and " " in text.strip())
        for text in texts
    )


def _needed(columns: Sequence[FitColumn], shown: Sequence[int]) -> int:
    return sum(columns[i].floor for i in shown) + GAP * max(0, len(shown) - 1)


def fit_columns(columns: Sequence[FitColumn], width: int) -> Fit:
    """Required columns always; then, from the left, every other column that still fits
    (so a narrow column further right is shown where a wide one before it is not)."""
    chosen = {i for i, column in enumerate(columns) if column.required}
    for index in range(len(columns)):
        if index not in chosen and _needed(columns, sorted(chosen | {index})) <= width:
            chosen.add(index)
    shown = sorted(chosen)
    fit = Fit(shown=shown, dropped=[c.title for i, c in enumerate(columns) if i not in shown])
    if _needed(columns, shown) > width:
        fit.too_wide = True
        fit.widths = {i: columns[i].natural for i in shown}
        return fit
    fit.widths = {i: columns[i].natural for i in shown if columns[i].keep_whole}
    free = sorted((i for i in shown if not columns[i].keep_whole), key=lambda i: columns[i].natural)
    spare = width - GAP * max(0, len(shown) - 1) - sum(fit.widths.values())
    # Narrow free-text columns get all they need; what is left is shared by the others.
    for position, index in enumerate(free):
        share = spare // (len(free) - position)
        given = max(columns[index].floor, min(columns[index].natural, share))
        fit.widths[index] = given
        spare -= given
    return fit
