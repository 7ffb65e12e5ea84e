"""A contract of one keyed create (POST /payments with an Idempotency-Key header), for
tests of what bulk runs send again and with which key."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import run_cli, token_env

PAYMENTS = {
    "openapi": "3.1.0",
    "info": {"title": "Payments", "version": "1"},
    "paths": {
        "/payments": {
            "post": {
                "operationId": "createPayment",
                "tags": ["Payments"],
                "parameters": [
                    {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["amount"],
                                "properties": {"amount": {"type": "integer"}},
                            }
                        }
                    },
                },
                "responses": {"201": {"description": "Created"}},
            }
        }
    },
}


def import_payments_contract(tmp_path: Path) -> None:
    """Make it the active contract of the test's profile."""
    contract = tmp_path / "payments.json"
    contract.write_text(json.dumps(PAYMENTS))
    imported = run_cli(["contract", "import", str(contract)], env=token_env())
    assert imported.exit_code == 0, imported.stderr
