"""The small index generated commands are built from, compiled once per contract.

Loading a generated command reads only ``index.json`` (names, help, parameters, flags,
body field summaries, output columns); the schemas a request body is validated against
are in ``schemas.json``, read only when a body is sent. Neither needs the contract itself.

The index is compiled when a contract is imported or pulled; the bundled contract's is
shipped prebuilt next to it (``python -m leadctl.contract.index`` rewrites it, and a
test fails when it is stale).

Compiled in stages, each a module building typed, immutable values
(``leadctl.contract.index.model``) from the last one's: ``read`` (the document's
operations), ``classify`` (what each is: parameters, body, answer, retry safety,
credentials), ``name`` (groups and verbs), ``compile`` (the entries, and the JSON the
store keeps, written by ``encode``). Readers decode that JSON with
``leadctl.contract.listing`` and ``leadctl.contract.entries``.
"""

from __future__ import annotations

from leadctl.contract.index.columns import list_columns
from leadctl.contract.index.compile import (
    build_bundled,
    compile_index,
    contract_hash,
    curated_command_names,
    dump,
    groups_text,
    main,
)
from leadctl.contract.index.read import walk_operations

__all__ = [
    "build_bundled",
    "compile_index",
    "contract_hash",
    "curated_command_names",
    "dump",
    "groups_text",
    "list_columns",
    "main",
    "walk_operations",
]
