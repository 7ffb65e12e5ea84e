"""Which member of an operation's request or answer is a secret, for --debug and --dry-run:
by its name, and by what the contract says of it (looked up once per operation)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from leadctl.config.redact import is_secret_key

if TYPE_CHECKING:
    from leadctl.contract.operation_secrets import OperationSecrets
    from leadctl.contract.operations import Operation


class SecretKeys:
    def __init__(self, secret_fields: Callable[[Operation], OperationSecrets] | None) -> None:
        # The contract's secret fields of an operation; None: names alone decide.
        self._secret_fields = secret_fields
        self._known: dict[tuple[str, str], OperationSecrets] = {}

    def of(self, op: Operation | None, side: str) -> Callable[[str], bool]:
        """Which member of ``op``'s request (``side`` "request") or answer ("response") is a
        secret: by its name, and where --debug or --dry-run loaded it, by the contract."""
        if op is None or self._secret_fields is None:
            return is_secret_key
        key = (op.method, op.path)
        if key not in self._known:
            self._known[key] = self._secret_fields(op)
        fields = self._known[key]
        names = fields.request if side == "request" else fields.response
        return (lambda name: is_secret_key(name) or name in names) if names else is_secret_key
