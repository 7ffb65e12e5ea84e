"""``leadctl contract reset`` in process.

``leadctl contract``'s verbs called through ``run(opts, ctx)``, and ``show``'s table."""

from __future__ import annotations

import pytest

from tests.support.run_context import direct_context, stderr_of, stdout_of


@pytest.mark.parametrize(
    ("signed_in", "said"),
    [
        (True, "https://api.example.test (profile 'default') had no imported contract"),
        # A profile with no base URL is its own service: named once.
        (False, "profile 'default' had no imported contract"),
    ],
)
def test_reset_without_an_imported_contract_says_so(signed_in: bool, said: str) -> None:
    from leadctl.commands.contract.reset import Options, run

    ctx = direct_context(signed_in=signed_in)
    run(Options(), ctx)
    assert stderr_of(ctx).strip() == said
    assert stdout_of(ctx) == ""
