"""Generated verbs that destroy something ask first (cli.md "Commands"): on a terminal a
y/N question, without one ``--yes`` or exit 2 with nothing sent. ``--dry-run`` sends
nothing, so it does not ask."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from leadctl.iostreams import safe_text

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation
    from leadctl.output.invocation import OutputInvocation

YES_HELP = (
    "Do not ask for confirmation (this deletes, removes or cancels something); required "
    "without a terminal."
)


def confirm_destructive(
    ctx: OutputInvocation, op: Operation, path_params: Mapping[str, str], *, yes: bool
) -> None:
    """Ask before a destructive operation runs; return only when it may."""
    if not op.destructive or ctx.options.dry_run:
        return

    target = op.path_for(**path_params) if path_params else op.path
    summary = safe_text(op.summary.rstrip("."), one_line=True)
    action = f"{op.method} {safe_text(target, one_line=True)}"
    question = f"{summary} ({action})?" if summary else f"{action}?"
    ctx.ios.confirm(question, assume_yes=yes)
