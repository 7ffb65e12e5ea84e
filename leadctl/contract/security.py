"""Which credential kinds may call an operation, and where the credential goes, from the
contract's ``security`` (cli.md "Credentials").

The rule:

- ``x-leadctl-credential-kinds`` on the operation (leadctl's own extension) wins for kinds;
- else the operation's ``security``, else the document's top-level ``security``;
- an empty list (``security: []``), or one holding the empty requirement ``{}`` (optional
  auth), means no credential is needed: none is looked up or sent;
- a scheme is a source-key scheme only when it says so: its name (the ``securitySchemes``
  key or an apiKey's parameter name), its ``bearerFormat`` or its description names a
  source key or an intake key, and the description does not also name organization keys
  or user tokens. A source-key scheme admits source keys only; every other scheme (``http``
  bearer or basic, an ``apiKey`` anywhere, ``oauth2``, ``openIdConnect``) admits
  organization keys and user tokens;
- the kinds an operation admits are those of every scheme its requirements name;
- a contract that says nothing about security: organization keys and user tokens, as
  ``Authorization: Bearer``.

Each requirement (one alternative of ``security``) also says where the credential goes,
one place per scheme it names: ``Authorization: Bearer`` (``http`` bearer, ``oauth2``,
``openIdConnect``, and an ``apiKey`` header named Authorization that says bearer or JWT),
``Authorization: Basic`` (``http`` basic), or the named header, query parameter or cookie
of an ``apiKey`` scheme. A source-key scheme's description may name the prefix its keys
start with ("lp_src_..."): those are collected for the whole contract, so such a key is
recognised as a source key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

STAFF = ["org", "user"]
SOURCE = "source"
KIND_ORDER = ["org", "user", "source"]
BEARER_PLACE = {"in": "header", "name": "Authorization", "scheme": "bearer"}
_SOURCE_KEY = re.compile(r"(source|intake)[\s_'-]*(s[\s_-]+)?(api[\s_-]*)?key", re.IGNORECASE)
_STAFF_WORDS = re.compile(
    r"organi[sz]ation[\s_-]*(api[\s_-]*)?key|org[\s_-]*key|user[\s_-]*token|access[\s_-]*token"
    r"|jwt",
    re.IGNORECASE,
)
_BEARER_WORDS = re.compile(r"bearer|jwt", re.IGNORECASE)
# "lp_src_...", "src_…", "lp_src_<random>", "lp_src_xxxx": a prefix and a placeholder.
_SHOWN_PREFIX = re.compile(
    r"\b([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*[_-])(?:\.\.\.|…|<|\*|x{3,}|X{3,})"
)
# "start with `src_`", "prefixed with lp_src_", "begins with 'src-'".
_STATED_PREFIX = re.compile(
    r"(?:prefix(?:ed)?(?:\s+with)?|begins?\s+with|starts?\s+with)\s+[`'\"]?"
    r"([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*[_-])",
    re.IGNORECASE,
)
MIN_PREFIX = 3


def _scheme_text(name: str, scheme: Mapping[str, Any]) -> tuple[str, str]:
    """What names the scheme (its key, parameter name, bearerFormat), and its description."""
    names = " ".join(
        str(part) for part in (name, scheme.get("name"), scheme.get("bearerFormat")) if part
    )
    return names, str(scheme.get("description") or "")


def scheme_is_source_key(name: str, scheme: Mapping[str, Any]) -> bool:
    names, description = _scheme_text(name, scheme)
    if _SOURCE_KEY.search(names) and not _STAFF_WORDS.search(description):
        return True
    return bool(_SOURCE_KEY.search(description)) and not _STAFF_WORDS.search(description)


def scheme_place(scheme: Mapping[str, Any]) -> dict[str, str] | None:
    """Where a scheme puts the credential; None for one leadctl cannot fill (mutual TLS)."""
    kind = scheme.get("type")
    if kind == "http":
        auth = str(scheme.get("scheme") or "bearer").lower()
        return {"in": "header", "name": "Authorization", "scheme": auth}
    if kind == "apiKey":
        where = str(scheme.get("in") or "header")
        name = str(scheme.get("name") or "")
        if where not in ("header", "query", "cookie") or not name:
            return dict(BEARER_PLACE)
        said = f"{name} {scheme.get('description') or ''}"
        if where == "header" and name.lower() == "authorization" and _BEARER_WORDS.search(said):
            return dict(BEARER_PLACE)  # Swashbuckle's "Bearer" apiKey: the token, not the header
        return {"in": where, "name": name, "scheme": "key"}
    if kind == "mutualTLS":
        return None
    return dict(BEARER_PLACE)  # oauth2, openIdConnect, or a scheme the document lacks


def credential_rule(document: Mapping[str, Any], spec: Mapping[str, Any]) -> dict[str, Any]:
    """``kinds`` (empty: no credential) and ``auth``: per requirement, the kinds its
    schemes admit and the places it puts the credential."""
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    requirements = spec.get("security", document.get("security"))
    alternatives: list[dict[str, Any]]
    if requirements is None or not isinstance(requirements, list):
        alternatives = [{"kinds": list(STAFF), "places": [dict(BEARER_PLACE)]}]
    elif not requirements or any(r == {} for r in requirements):
        return {"kinds": [], "auth": []}
    else:
        alternatives = [_alternative(schemes, r) for r in requirements if isinstance(r, Mapping)]
    marked = spec.get("x-leadctl-credential-kinds")
    if isinstance(marked, list) and marked:
        kinds = [str(k) for k in marked]
    else:
        found = {kind for alternative in alternatives for kind in alternative["kinds"]}
        kinds = [kind for kind in KIND_ORDER if kind in found]
    return {"kinds": kinds, "auth": alternatives}


def _alternative(schemes: Mapping[str, Any], requirement: Mapping[str, Any]) -> dict[str, Any]:
    kinds: set[str] = set()
    places = []
    for name in requirement:
        scheme = schemes.get(name)
        if not isinstance(scheme, Mapping):
            scheme = {}
        kinds.update([SOURCE] if scheme_is_source_key(str(name), scheme) else STAFF)
        place = scheme_place(scheme)
        if place is not None and place not in places:
            places.append(place)
    return {"kinds": [kind for kind in KIND_ORDER if kind in kinds], "places": places}


def source_key_prefixes(document: Mapping[str, Any]) -> list[str]:
    """The prefixes the contract's source-key schemes say their keys start with."""
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    found: list[str] = []
    for name, scheme in schemes.items() if isinstance(schemes, Mapping) else ():
        if isinstance(scheme, Mapping) and scheme_is_source_key(str(name), scheme):
            for prefix in _prefixes(" ".join(_scheme_text(str(name), scheme))):
                if prefix not in found:
                    found.append(prefix)
    return found


def _prefixes(text: str) -> Iterator[str]:
    for pattern in (_SHOWN_PREFIX, _STATED_PREFIX):
        for match in pattern.finditer(text):
            prefix = match.group(1)
            if len(prefix) >= MIN_PREFIX:
                yield prefix
