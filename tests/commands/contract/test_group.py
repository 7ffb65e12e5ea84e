"""``leadctl contract``, what its verbs share.

``leadctl contract``'s verbs called through ``run(opts, ctx)``, and ``show``'s table."""

from __future__ import annotations

import json

from tests.support.run_context import direct_context, stdout_of


def test_show_json_is_the_summary_with_groups_that_add_up() -> None:
    from leadctl.commands.contract.show import Options, run

    ctx = direct_context(output="json")
    run(Options(), ctx)
    data = json.loads(stdout_of(ctx))
    assert data["profile"] == "default"
    assert data["operations"] == data["curated"] + data["generated"] > 0
    assert sum(group["operations"] for group in data["groups"]) == data["operations"]
