"""How a view's drawing reaches the terminal: drawn with the stdout Console of
:meth:`IOStreams.console`, paged like a table when taller than the terminal."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import RenderableType

    from leadctl.iostreams import IOStreams


def show(ios: IOStreams, renderable: RenderableType) -> None:
    """Draw ``renderable`` on stdout at the terminal's width, through the pager when it is
    taller than the terminal."""
    from leadctl.output.table import write_rendered

    buffer = io.StringIO()
    ios.console(file=buffer).print(renderable)
    write_rendered(ios, buffer.getvalue())
