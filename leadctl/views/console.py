"""The one rich Console every view draws with, and how its output reaches the terminal."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

# A pseudo-terminal that was never sized reports 0 columns; rich would then draw nothing.
FALLBACK_WIDTH = 80

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

    from leadctl.iostreams import IOStreams


def make_console(ios: IOStreams, file: io.StringIO) -> Console:
    """A Console whose every terminal decision comes from ``ios``.

    Color off means no color system at all, so rich writes no escape sequence of any
    kind. Markup, emoji and highlighting are off: the service's text is data, and a
    lead's name with ``[bold]`` in it must print as typed.
    """
    from rich.console import Console

    color = ios.stdout_color
    width = ios.terminal_width()
    return Console(
        file=file,
        force_terminal=ios.stdout_is_tty,
        no_color=not color,
        color_system="auto" if color else None,
        width=width if width > 0 else FALLBACK_WIDTH,
        markup=False,
        emoji=False,
        highlight=False,
        legacy_windows=False,
        force_jupyter=False,
        force_interactive=False,
    )


def show(ios: IOStreams, renderable: RenderableType) -> None:
    """Draw ``renderable`` on stdout, through the pager when it is taller than the terminal."""
    from leadctl.output.table import write_rendered

    buffer = io.StringIO()
    make_console(ios, buffer).print(renderable)
    write_rendered(ios, buffer.getvalue())
