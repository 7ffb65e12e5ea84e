"""The bundled contract (leadctl/contract/openapi.json) as parsed JSON, read once per process.

leadctl itself never needs the whole document (its commands read the compiled index; the
sandbox reads the file as package data); the tests compare against it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from leadctl.contract import CONTRACT_FILE


@cache
def load_contract() -> dict[str, Any]:
    """The parsed contract; callers must not mutate it."""
    with CONTRACT_FILE.open(encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    return document
