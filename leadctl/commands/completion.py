"""``leadctl completion SHELL``: the shell completion script."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from leadctl.commands._common import get_context

app = typer.Typer()


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@app.command(
    epilog="Examples:\n\n"
    "  leadctl completion bash > ~/.local/share/bash-completion/completions/leadctl\n\n"
    "  leadctl completion fish > ~/.config/fish/completions/leadctl.fish",
)
def completion(
    typer_ctx: typer.Context,
    shell: Annotated[Shell, typer.Argument(help="bash, zsh or fish.")],
) -> None:
    """Print the completion script for SHELL."""
    from typer.completion import get_completion_script  # type: ignore[attr-defined]

    ctx = get_context(typer_ctx)
    script = get_completion_script(
        prog_name="leadctl", complete_var="_LEADCTL_COMPLETE", shell=shell.value
    )
    ctx.ios.stdout.write(script.rstrip("\n") + "\n")
