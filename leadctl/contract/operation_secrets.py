"""What one operation's contract marks as secret in its request body and its answer.

Above both the schema reading (``body_schema``: which contract and schemas an operation
came from) and the rule of which field is a secret (``secret_schema``), so the contract
compiler can use that rule without the operation model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.contract.body_schema import json_body_schema, json_response_schema, operation_spec
from leadctl.contract.secret_schema import secret_names

if TYPE_CHECKING:
    from leadctl.contract.invocation import ContractInvocation
    from leadctl.contract.operations import Operation


@dataclass(frozen=True)
class OperationSecrets:
    """The names of the secret fields of an operation's request body and of its answer."""

    request: frozenset[str] = frozenset()
    response: frozenset[str] = frozenset()


def operation_secrets(ctx: ContractInvocation, op: Operation) -> OperationSecrets:
    """What the contract ``op`` came from marks as secret in its request and its answer."""
    found = operation_spec(ctx, op)
    request = json_body_schema(found.doc, found.spec)
    response = json_response_schema(found.doc, found.spec)
    return OperationSecrets(
        request=frozenset() if request is None else secret_names(found.doc, request),
        response=frozenset() if response is None else secret_names(found.doc, response),
    )
