"""The generated verb table of the ASP.NET fixture contract (group, verb, METHOD PATH),
kept in ``fixture-verbs.tsv`` for review: ``uv run python -m tests.generated.fixture_verbs``
rewrites it, and a test fails when it is stale."""

from __future__ import annotations

import json
from pathlib import Path

from leadctl.contract.formats import to_31
from leadctl.contract.index import compile_index, curated_command_names

FIXTURE = Path(__file__).parents[1] / "fixtures" / "contracts" / "aspnet-3.1.json"
TABLE = Path(__file__).with_name("fixture-verbs.tsv")


def table() -> str:
    raw = FIXTURE.read_bytes()
    index, _schemas = compile_index(
        to_31(json.loads(raw)),
        raw=raw,
        source="fixture",
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version="table",
    )
    rows = sorted(
        (
            op["group"],
            op["verb"],
            f"{op['method']} {op['path']}",
            "curated" if op["curated"] else "",
        )
        for op in index["operations"]
    )
    return "group\tverb\toperation\tkind\n" + "".join("\t".join(row) + "\n" for row in rows)


if __name__ == "__main__":
    TABLE.write_text(table(), encoding="utf-8")
