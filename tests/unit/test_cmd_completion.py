"""``leadctl completion``'s ``run(opts, ctx, tree)`` called directly: for the bundled
contract's tree, the checked-in script, as is."""

from __future__ import annotations

from pathlib import Path

import pytest

from leadctl.commands.completion.script import Options, Shell, run
from leadctl.docgen.tree import load_tree
from tests.support.run_context import direct_context, stdout_of

COMPLETIONS = Path(__file__).resolve().parents[2] / "completions"


@pytest.mark.parametrize(
    ("shell", "file"),
    [(Shell.bash, "leadctl.bash"), (Shell.zsh, "_leadctl"), (Shell.fish, "leadctl.fish")],
)
def test_run_prints_the_checked_in_script_of_the_shell(shell: Shell, file: str) -> None:
    ctx = direct_context()
    run(Options(shell), ctx, load_tree())
    assert stdout_of(ctx) == (COMPLETIONS / file).read_text(encoding="utf-8")
