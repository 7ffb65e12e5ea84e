"""The paging options and page printer, which live in ``leadctl.listing`` (generated
commands use them too, and ``leadctl.generated`` never imports ``leadctl.commands``)."""

from __future__ import annotations

from leadctl.listing import (
    AllOption,
    CountOption,
    CursorOption,
    LimitOption,
    PageSizeOption,
    print_paged,
)

__all__ = [
    "AllOption",
    "CountOption",
    "CursorOption",
    "LimitOption",
    "PageSizeOption",
    "print_paged",
]
