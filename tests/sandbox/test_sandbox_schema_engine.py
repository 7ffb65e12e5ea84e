"""One contract file and one schema engine for leadctl and its sandbox.

The sandbox reads leadctl's bundled contract as package data (no copy of its own, no import
of leadctl.contract) and validates with the library leadctl validates bodies with, loaded on
the first validation only.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "leadctl" / "contract" / "openapi.json"


def test_the_sandbox_keeps_no_copy_of_the_contract() -> None:
    contract = CONTRACT.read_bytes()
    copies = [
        path.name for path in (ROOT / "leadctl_sandbox").rglob("*.json")
        if path.read_bytes() == contract
    ]  # fmt: skip
    assert copies == []


PROBE = """
import sys
from leadctl_sandbox.app import SandboxApp
from leadctl_sandbox.published import REFERENCE_FILE, published_contract
from leadctl_sandbox.validation import SchemaValidator, schema_ref

document = published_contract()
print(REFERENCE_FILE)
print(sorted(m for m in ("jsonschema_rs", "leadctl.contract") if m in sys.modules))
errors = SchemaValidator(document).validate(schema_ref("TagCreate"), {"name": 5})
print(errors)
print("jsonschema_rs" in sys.modules)
"""


def test_the_sandbox_reads_leadctls_contract_and_validates_with_its_engine() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    reference, loaded_early, errors, engine_loaded = proc.stdout.splitlines()
    assert Path(reference).resolve() == CONTRACT.resolve()
    # Neither the engine nor leadctl's contract package loads to read the contract.
    assert loaded_early == "[]"
    assert errors == "{'name': ['must be a JSON string']}"
    assert engine_loaded == "True"
