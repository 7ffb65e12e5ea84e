"""The bundled OpenAPI contract of the Lead Management Service (``openapi.json``).

The JSON file is the single source: the sandbox validates requests with its schemas and
takes each operation's credential kinds from it; leadctl's own operations come from its
compiled index (``leadctl.contract.operations``), where retry safety is decided.
"""

from __future__ import annotations

from pathlib import Path

CONTRACT_FILE = Path(__file__).with_name("openapi.json")
# The bundled contract's prebuilt index (``python -m leadctl.contract.index`` writes them),
# and the format of every compiled index: the compiler writes it, the store checks it.
# 6: a body field with no choices or no fields of its own lists none (no empty lists).
INDEX_FORMAT = 6
BUNDLED_INDEX_FILE = Path(__file__).with_name("openapi.index.json")
BUNDLED_SCHEMAS_FILE = Path(__file__).with_name("openapi.schemas.json")
BUNDLED_GROUPS_FILE = Path(__file__).with_name("openapi.groups.tsv")
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
