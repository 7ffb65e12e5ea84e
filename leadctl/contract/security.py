"""Which credential kinds may call an operation, from the contract's ``security``.

The rule (cli.md "Credentials"):

- ``x-leadctl-credential-kinds`` on the operation (leadctl's own extension) wins;
- else the operation's ``security``, else the document's top-level ``security``;
- an empty list (``security: []``), or one holding the empty requirement ``{}``, means no
  credential is needed: none is looked up or sent;
- a scheme describes a source key when it is an ``apiKey`` scheme, or its name (the
  ``securitySchemes`` key or the apiKey's header name) mentions a source key, or its
  description mentions a source key and neither an organization key nor a user token;
  a source-key scheme admits source keys only;
- any other scheme (``http`` bearer or basic, ``oauth2``, ``openIdConnect``) admits
  organization keys and user tokens;
- the kinds an operation admits are those of every scheme its requirements name;
- a contract that says nothing about security: organization keys and user tokens.

A source-key apiKey scheme in a header also says where the key goes (its header name),
unless the profile's ``source_key_header`` names another.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

STAFF = ["org", "user"]
SOURCE = "source"
_SOURCE_KEY = re.compile(r"source[\s_-]*(api[\s_-]*)?key", re.IGNORECASE)
_STAFF_WORDS = re.compile(r"organi[sz]ation|org[\s_-]*key|user[\s_-]*token|jwt", re.IGNORECASE)


def scheme_is_source_key(name: str, scheme: Mapping[str, Any]) -> bool:
    if scheme.get("type") == "apiKey":
        return True
    if _SOURCE_KEY.search(name):
        return True
    description = str(scheme.get("description") or "")
    return bool(_SOURCE_KEY.search(description)) and not _STAFF_WORDS.search(description)


def credential_rule(
    document: Mapping[str, Any], spec: Mapping[str, Any]
) -> tuple[list[str], str | None]:
    """The credential kinds an operation admits (empty: none needed) and the header a
    source key goes in (None: ``Authorization: Bearer``)."""
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    requirements = spec.get("security", document.get("security"))
    header = _source_header(schemes, requirements)
    marked = spec.get("x-leadctl-credential-kinds")
    if isinstance(marked, list) and marked:
        return [str(k) for k in marked], header
    if requirements is None or not isinstance(requirements, list):
        return list(STAFF), None
    if not requirements or any(r == {} for r in requirements):
        return [], None
    kinds: set[str] = set()
    for requirement in requirements:
        if not isinstance(requirement, Mapping):
            continue
        for name in requirement:
            scheme = schemes.get(name)
            if isinstance(scheme, Mapping) and scheme_is_source_key(str(name), scheme):
                kinds.add(SOURCE)
            else:
                kinds.update(STAFF)
    return sorted(kinds, key=["org", "user", "source"].index), header


def _source_header(schemes: Mapping[str, Any], requirements: Any) -> str | None:
    if not isinstance(requirements, list):
        return None
    for requirement in requirements:
        if not isinstance(requirement, Mapping):
            continue
        for name in requirement:
            scheme = schemes.get(name)
            if (
                isinstance(scheme, Mapping)
                and scheme.get("type") == "apiKey"
                and scheme.get("in") == "header"
                and scheme_is_source_key(str(name), scheme)
                and str(scheme.get("name", "")).lower() != "authorization"
            ):
                return str(scheme.get("name")) or None
    return None
