"""Whether an operation admits a credential, and where in the request it goes (cli.md
"Credentials").

The contract decided both when it was compiled (``leadctl.contract.security``): the kinds
an operation admits and, per security requirement, the places it puts the credential. Here
they meet a credential: an organization key or user token takes the first requirement that
admits staff credentials, a source key the first that admits source keys (or the header the
profile's ``source_key_header`` names), and a value of no recognisable kind is sent as a
bearer credential would be, by the first requirement that takes one, so the service decides.

The stored value is what the scheme needs: the token for a bearer scheme, the key for an
``apiKey`` header, query parameter or cookie, and for HTTP Basic ``user:password`` (a value
without a colon is the user name with an empty password, as ``curl -u KEY:`` sends an API key
that stands for the user).
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote, quote_plus

if TYPE_CHECKING:
    import httpx

UNKNOWN = "unknown"
STAFF = frozenset({"org", "user"})


class Place(NamedTuple):
    """One place a credential goes: a header, query parameter or cookie, and its form."""

    where: str  # "header", "query" or "cookie"
    name: str
    # "bearer", "basic", "key" (the value as it is), or another HTTP auth scheme's name.
    scheme: str


class Requirement(NamedTuple):
    """One alternative of an operation's security: the kinds it admits, where it puts them."""

    kinds: frozenset[str]
    places: tuple[Place, ...]


BEARER = Place("header", "Authorization", "bearer")
# An operation no contract describes (``leadctl api`` on an unknown path).
DEFAULT_REQUIREMENTS = (Requirement(STAFF, (BEARER,)),)


def requirements_of(entries: Iterable[Mapping[str, Any]]) -> tuple[Requirement, ...]:
    """The requirements of a compiled index entry's ``auth``."""
    return tuple(
        Requirement(
            frozenset(str(k) for k in entry.get("kinds", ())),
            tuple(
                Place(str(p["in"]), str(p["name"]), str(p["scheme"]))
                for p in entry.get("places", ())
            ),
        )
        for entry in entries
    )


def admits(kinds: frozenset[str], kind: str) -> bool:
    """Whether an operation admitting ``kinds`` may be sent a credential of ``kind``: one
    of no recognisable kind goes wherever a credential is needed."""
    if kind == UNKNOWN:
        return bool(kinds)
    return kind in kinds


def places_for(
    requirements: Sequence[Requirement], kind: str, *, source_key_header: str | None = None
) -> tuple[Place, ...]:
    if kind == "source" and source_key_header:
        return (Place("header", source_key_header, "key"),)
    wanted = STAFF if kind == UNKNOWN else frozenset({kind})
    for requirement in requirements:
        if requirement.kinds & wanted:
            return requirement.places
    # Admitted by the contract's x-leadctl-credential-kinds rather than by a scheme.
    return requirements[0].places if requirements else (BEARER,)


def takes_cookie(requirements: Iterable[Requirement]) -> bool:
    """Whether any alternative of an operation's security puts a credential in a cookie."""
    return any(place.where == "cookie" for r in requirements for place in r.places)


def basic_pair(value: str) -> str:
    return value if ":" in value else f"{value}:"


def header_value(place: Place, value: str) -> str:
    if place.scheme == "bearer":
        return f"Bearer {value}"
    if place.scheme == "basic":
        return "Basic " + base64.b64encode(basic_pair(value).encode("utf-8")).decode("ascii")
    if place.scheme == "key":
        return value
    return f"{place.scheme.capitalize()} {value}"


def place_credential(request: httpx.Request, places: Iterable[Place], value: str) -> None:
    """Put ``value`` in each place, replacing what an earlier credential put there."""
    for place in places:
        if place.where == "query":
            request.url = request.url.copy_set_param(place.name, value)
        elif place.where == "cookie":
            kept = [
                pair.strip()
                for pair in request.headers.get("Cookie", "").split(";")
                if pair.strip() and pair.split("=", 1)[0].strip() != place.name
            ]
            request.headers["Cookie"] = "; ".join([*kept, f"{place.name}={value}"])
        else:
            request.headers[place.name] = header_value(place, value)


def secret_forms(places: Iterable[Place], value: str) -> tuple[str, ...]:
    """Every form of ``value`` a trace could show: as it is, Base64 in a Basic header, and
    percent-encoded in a query or cookie."""
    forms = [value]
    for place in places:
        if place.scheme == "basic":
            forms.append(header_value(place, value).split(" ", 1)[1])
        if place.where in ("query", "cookie"):
            forms += [quote(value, safe=""), quote_plus(value)]
    return tuple(dict.fromkeys(forms))
