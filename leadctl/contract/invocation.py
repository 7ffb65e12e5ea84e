"""What the contract room reads of the command being run: its environment, its profile's
settings and the active contract's index.

Protocols, not the invocation's Context (``leadctl.context``, which sits above this room and
builds on it): a function here names the few things it reads, any object that has them will
do, and the room needs no import of the command layer, not even for a type. The Context is
such an object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from datetime import tzinfo

    from leadctl.clock import Clock
    from leadctl.contract.entries import Parameter
    from leadctl.contract.store import ActiveIndex


class ProfileValues(Protocol):
    """The active profile's settings, as far as the contract room reads them."""

    @property
    def profile_values(self) -> Mapping[str, Any]: ...

    def get(self, key: str, default: Any = None) -> Any: ...


class ContractInvocation(Protocol):
    """A command's view of its active contract (``leadctl.contract.operations``)."""

    @property
    def env(self) -> Mapping[str, str]: ...

    @property
    def settings(self) -> ProfileValues: ...

    @property
    def active_index(self) -> ActiveIndex: ...


class InputInvocation(ContractInvocation, Protocol):
    """What reading a typed value as the service wants it needs besides the contract: the
    zone of a time typed without an offset, and the present (``leadctl.inputs.lead_fields``,
    ``leadctl.inputs.values``)."""

    @property
    def clock(self) -> Clock: ...

    def input_zone(self) -> tzinfo | None: ...


class CuratedInvocation(ContractInvocation, Protocol):
    """What finding a curated verb's operation reads: also the query string of the active
    contract's own parameters given to the verb ("" for none: ``leadctl.inputs.given``)."""

    def contract_query(self, method: str, path: str) -> str: ...


class GivenInvocation(InputInvocation, Protocol):
    """The active contract's own query parameters given to a curated verb, by operation
    template, and what reading their values needs (``leadctl.inputs.given``)."""

    @property
    def contract_params_given(self) -> dict[tuple[str, str], list[tuple[Parameter, Any]]]: ...
