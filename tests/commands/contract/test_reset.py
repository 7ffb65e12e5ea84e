"""``leadctl contract reset`` in process.

``leadctl contract``'s verbs called through ``run(opts, ctx)``, and ``show``'s table."""

from __future__ import annotations

from tests.support.run_context import direct_context, stderr_of, stdout_of


def test_reset_without_an_imported_contract_says_so() -> None:
    from leadctl.commands.contract.reset import Options, run

    ctx = direct_context()
    run(Options(), ctx)
    assert "had no imported contract (profile 'default')" in stderr_of(ctx)
    assert stdout_of(ctx) == ""
