"""``leadctl completion script`` in process.

``leadctl completion``'s ``run(opts, ctx)`` called directly: for the bundled"""

from __future__ import annotations

import pytest

from leadctl.commands.completion.script import Options, Shell, run
from leadctl.docgen.tree import load_tree
from tests.commands.completion._support import COMPLETIONS
from tests.support.run_context import direct_context, stdout_of


@pytest.mark.parametrize(
    ("shell", "file"),
    [(Shell.bash, "leadctl.bash"), (Shell.zsh, "_leadctl"), (Shell.fish, "leadctl.fish")],
)
def test_run_prints_the_checked_in_script_of_the_shell(shell: Shell, file: str) -> None:
    ctx = direct_context()
    run(Options(shell, tree=load_tree()), ctx)
    assert stdout_of(ctx) == (COMPLETIONS / file).read_text(encoding="utf-8")
