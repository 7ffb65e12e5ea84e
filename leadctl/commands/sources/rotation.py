"""How the active contract lets a source's intake key be rotated (issue 21 point 3).

Two shapes are known: a rotate operation (``POST /sources/{id}/credentials/rotate``, answering
``{source, secret}``), and, where a contract has none, the source's update (``PUT
/sources/{id}``) with a boolean that asks the service to issue a new key, whose answer (the
source) carries the new key in a secret field. Both are found by what the contract says of its
fields (types, names, descriptions), not by one field name; a contract with neither is exit 2
naming what it lacks, before anything is sent.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.contract.body_schema import body_schema, find_spec, json_response_schema
from leadctl.contract.operations import active_index_of, curated
from leadctl.contract.secret_schema import secret_properties
from leadctl.errors import UsageError
from leadctl.util.secret_fields import name_words

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.document import Document
    from leadctl.contract.operations import Operation

ROTATE_PATH = "/sources/{id}/credentials/rotate"
SOURCE_PATH = "/sources/{id}"
# A flag asks for a new key when its name has a word of each set...
ACTION_WORDS = frozenset(
    {
        "regenerate", "rotate", "reissue", "renew", "reset", "roll", "cycle", "issue",
        "generate", "new", "replace", "recreate",
    }
)  # fmt: skip
KEY_WORDS = frozenset({"key", "apikey", "secret", "token", "credential", "credentials"})
# ...or its description says so: "issue a new API key", "rotate the secret".
_ASKS_FOR_KEY = re.compile(
    r"\b(?:(?:regenerat|rotat|reissu|renew|issu|generat|roll|cycl)\w*\b[^.]{0,40}?"
    r"|new\s+(?:\w+\s+){0,2})(?:key|secret|token|credential)s?\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ByOperation:
    """The contract's rotate operation, answering ``{source, secret}``."""

    op: Operation


@dataclass(frozen=True)
class ByFlag:
    """The source's update with ``flag`` true; the new key comes back in ``key_field``."""

    put: Operation
    flag: str
    key_field: str


def rotation_plan(ctx: Context) -> ByOperation | ByFlag:
    """How this service rotates a key, from the active contract; exit 2 when it cannot."""

    active = active_index_of(ctx)
    if active.find("POST", ROTATE_PATH) is not None:
        return ByOperation(curated(ctx, "POST", ROTATE_PATH))
    lacks = f"the active contract has no POST {ROTATE_PATH}"
    if active.find("PUT", SOURCE_PATH) is None:
        raise UsageError(
            f"{lacks} and no PUT {SOURCE_PATH}: it shows no way to ask for a new key",
            hint="`leadctl contract show` says which contract is active; "
            "`leadctl contract pull` fetches the service's own",
        )
    put = curated(ctx, "PUT", SOURCE_PATH)
    found = body_schema(ctx, put)
    flags = [] if found is None else new_key_flags(found.doc, found.schema)
    if len(flags) != 1:
        what = (
            "no field that asks for a new key (a boolean such as regenerateApiKey, described "
            "as having the service issue a new API key)"
            if not flags
            else f"several fields that may ask for a new key ({', '.join(flags)})"
        )
        raise UsageError(f"{lacks}, and its PUT {SOURCE_PATH} has {what}")
    assert found is not None
    answer = json_response_schema(found.doc, find_spec(found.doc, "PUT", put.path))
    keys = [] if answer is None else key_fields(found.doc, answer)
    if len(keys) != 1:
        what = "no field for the new key" if not keys else f"several ({', '.join(keys)})"
        raise UsageError(
            f"{lacks}; its PUT {SOURCE_PATH} can ask for a new key ({flags[0]}), but its "
            f"answer has {what}: leadctl cannot tell where the new key would be"
        )
    # Sending it twice would issue two keys, the first lost: never repeated but after a 429.
    once = dataclasses.replace(put, retry_safe=False, retry_reason="asks for a new key")
    return ByFlag(put=once, flag=flags[0], key_field=keys[0])


def new_key_flags(doc: Document, schema: Any) -> list[str]:
    """The boolean properties of ``schema`` that ask the service to issue a new key."""
    found = []
    for name, sub in doc.properties(schema).items():
        if doc.type_of(sub) != "boolean":
            continue
        description = doc.keyword(sub, "description")
        words = set(name_words(name))
        said = isinstance(description, str) and _ASKS_FOR_KEY.search(description) is not None
        if said or (words & ACTION_WORDS and words & KEY_WORDS):
            found.append(name)
    return found


def key_fields(doc: Document, schema: Any) -> list[str]:
    """The top-level text properties of an answer that hold a secret (the key)."""

    return [
        name
        for name, sub in secret_properties(doc, schema).items()
        if doc.type_of(sub) in ("string", None)
    ]


def refuse_new_key_flag(ctx: Context, op: Operation, body: Mapping[str, Any]) -> None:
    """An update that would ask for a new key is `sources rotate`'s job: its answer holds
    the only copy of the key, which an update would print and could lose."""

    found = body_schema(ctx, op)
    if found is None:
        return
    asked = [flag for flag in new_key_flags(found.doc, found.schema) if body.get(flag) is True]
    if asked:
        raise UsageError(
            f"{asked[0]} asks the service for a new intake key; nothing was sent",
            hint="rotate with `leadctl sources rotate ID`, which writes the new key to "
            "--secret-file or a recovery file before anything is printed",
        )
