"""How a view's drawing reaches the terminal: drawn with the stdout Console of
:meth:`IOStreams.console`, paged like a table when taller than the terminal."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from leadctl.output.table import write_rendered

if TYPE_CHECKING:
    from rich.console import RenderableType

    from leadctl.iostreams import IOStreams
    from leadctl.output import View
    from leadctl.output.invocation import OutputInvocation

# The command's invocation object, handed back to ``render`` as the command gave it.
InvocationT = TypeVar("InvocationT", bound="OutputInvocation")


def show(ios: IOStreams, renderable: RenderableType) -> None:
    """Draw ``renderable`` on stdout at the terminal's width, through the pager when it is
    taller than the terminal."""

    buffer = io.StringIO()
    ios.console(file=buffer).print(renderable)
    write_rendered(ios, buffer.getvalue())


def view_of(render: Callable[[InvocationT, Any], RenderableType]) -> View[InvocationT]:
    """The ``view=`` of :func:`leadctl.output.emit_object` / ``emit_list`` for a function
    that turns the data into something rich draws (a gauge, a tree): shown with
    :func:`show`."""

    def draw(ctx: InvocationT, data: Any) -> None:
        show(ctx.ios, render(ctx, data))

    return draw
