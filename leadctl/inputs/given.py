"""The active contract's own query parameters given to a curated verb on this invocation,
kept until the verb asks for its operation (``leadctl.generated.curated_params`` adds the
flags; the Context's ``contract_query`` hands ``leadctl.contract.operations.curated`` the
query string of what was given).

Apart from the flags' module, so reading what was given loads none of the command
building above it.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from leadctl.contract.templates import template_key
from leadctl.inputs.values import normalised_param

if TYPE_CHECKING:
    from leadctl.contract.entries import Parameter
    from leadctl.contract.invocation import GivenInvocation


def remember_given(ctx: GivenInvocation, key: tuple[str, str], spec: Parameter, value: Any) -> None:
    """Keep ``value`` of parameter ``spec`` for the operation of template ``key``."""
    ctx.contract_params_given.setdefault(key, []).append((spec, value))


def contract_query(ctx: GivenInvocation, method: str, path: str) -> str:
    """The query string of the parameters given for METHOD + path template ("" for none),
    each value read as a generated verb reads it (times in UTC, phone numbers in E.164)."""
    given = ctx.contract_params_given.get(template_key(method, path))
    if not given:
        return ""
    query: dict[str, Any] = {}
    for spec, value in given:
        items = value if isinstance(value, list) else [value]
        texts = []
        for item in items:
            plain = item.value if isinstance(item, Enum) else item
            plain = normalised_param(ctx, spec, plain)
            texts.append(("true" if plain else "false") if isinstance(plain, bool) else str(plain))
        query[spec.name] = texts if isinstance(value, list) else texts[0]
    return urlencode(query, doseq=True)
