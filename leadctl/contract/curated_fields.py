"""A curated flag is bound to a field name; the active contract may name that field otherwise.

``sources update --requires-consent-certificate`` sets ``requiresConsentCertificate``; where
the active contract's update calls it ``consentCertificateRequired``, sending the flag's name
would be an unknown field the service ignores or refuses. Such a flag is exit 2 before
anything is sent, naming the fields the schema has (and the likeliest one), and how to set it
with ``--data``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.contract.body_schema import body_schema
from leadctl.errors import UsageError
from leadctl.util.secret_fields import name_words

if TYPE_CHECKING:
    from leadctl.contract.invocation import ContractInvocation
    from leadctl.contract.operations import Operation

# Words compared by their first letters: "requires" and "required" are one word here.
STEM = 6
# At least this share of the flag's field words must be in a suggested field's.
SUGGEST_SHARE = 0.5


@dataclass(frozen=True)
class FlagField:
    """A flag as given: its name, the dot path of the field it sets, and its value."""

    flag: str
    path: str
    value: Any


def check_flag_fields(ctx: ContractInvocation, op: Operation, given: list[FlagField]) -> None:
    """Exit 2 when a given flag's field is not in ``op``'s request schema, at a level where
    the schema lists its properties. A contract without a body schema cannot tell."""

    if not given:
        return
    found = body_schema(ctx, op)
    if found is None:
        return
    doc = found.doc
    for flag in given:
        schema = found.schema
        parts = flag.path.split(".")
        for depth, part in enumerate(parts):
            properties = doc.properties(schema)
            if not properties:
                break
            if part not in properties:
                raise _not_in_schema(op, flag, parts[:depth], list(properties))
            schema = properties[part]


def _not_in_schema(
    op: Operation, flag: FlagField, parents: list[str], fields: list[str]
) -> UsageError:
    where = f" under {'.'.join(parents)}" if parents else ""
    guess = likeliest(flag.path.split(".")[-1], fields)
    hint = "set one of those with --data (a JSON object)"
    if guess is not None:
        data: Any = {guess: flag.value}
        for parent in reversed(parents):
            data = {parent: data}
        hint = f"did you mean {guess}? set it with --data '{json.dumps(data, ensure_ascii=False)}'"
    return UsageError(
        f"{flag.flag} sets {flag.path}, which the active contract's {op.method} {op.path} "
        f"does not take; its fields{where}: {', '.join(fields)}",
        hint=hint,
    )


def likeliest(name: str, fields: list[str]) -> str | None:
    """The field sharing most of ``name``'s words (``requiresConsentCertificate`` ->
    ``consentCertificateRequired``), if one shares at least half of them."""
    wanted = {word[:STEM] for word in name_words(name)}
    if not wanted:
        return None
    best, best_share = None, 0.0
    for field in fields:
        share = len(wanted & {word[:STEM] for word in name_words(field)}) / len(wanted)
        if share > best_share:
            best, best_share = field, share
    return best if best_share >= SUGGEST_SHARE else None


def flag_fields(values: Mapping[str, tuple[str, Any]]) -> list[FlagField]:
    """``{path: (flag, value)}`` as FlagFields, for the flags that were given (not None)."""
    return [
        FlagField(flag=flag, path=path, value=value)
        for path, (flag, value) in values.items()
        if value is not None
    ]
