"""Who is calling: Bearer credentials of three kinds, and what each may do.

401 for a missing or unknown credential; 403 for a credential kind the operation does not
take (a source key anywhere but lead intake) and for writes by a read-only user.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from leadctl_sandbox import keys
from leadctl_sandbox.problems import ApiProblem

ORG = "org"
USER = "user"
SOURCE = "source"
READ_ONLY_ROLE = "ReadOnly"
WRITE_ROLES = frozenset({"Owner", "Admin", "Member"})
# Operations that change state; a read-only user may call everything else.
WRITE_OPERATIONS = frozenset(
    {
        "updateSource",
        "updateLeadStatusChange",
        "deleteLeadStatusChange",
        "rotateSourceCredentials",
        "createLead",
    }
)
_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="leadctl-sandbox"'}
_INVALID = {"WWW-Authenticate": 'Bearer realm="leadctl-sandbox", error="invalid_token"'}


# A NamedTuple, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a dataclass costs five times as much to define (issue 32).
class Principal(NamedTuple):
    kind: str
    org_id: str
    # The acting user: the token's subject, or for an organization key the key's owner.
    user_id: str | None = None
    roles: tuple[str, ...] = ()
    source_id: str | None = None
    claims: Mapping[str, object] = MappingProxyType({})

    @property
    def read_only(self) -> bool:
        return self.kind == USER and not WRITE_ROLES.intersection(self.roles)


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def authenticate(conn: sqlite3.Connection, secret: bytes, authorization: str | None) -> Principal:
    token = bearer_token(authorization)
    if token is None:
        raise ApiProblem(401, "A Bearer credential is required.", headers=_CHALLENGE)
    if token.startswith("sk_"):
        row = conn.execute(
            "SELECT org_id, user_id FROM org_keys WHERE key_hash = ?", (keys.key_hash(token),)
        ).fetchone()
        if row is not None:
            return Principal(ORG, row["org_id"], user_id=row["user_id"])
    elif keys.looks_like_jwt(token):
        principal = _user_principal(conn, secret, token)
        if principal is not None:
            return principal
    else:
        row = conn.execute(
            "SELECT id, org_id FROM sources WHERE key_hash = ?", (keys.key_hash(token),)
        ).fetchone()
        if row is not None:
            return Principal(SOURCE, row["org_id"], source_id=row["id"])
    raise ApiProblem(401, "The credential is not valid.", headers=_INVALID)


def _user_principal(conn: sqlite3.Connection, secret: bytes, token: str) -> Principal | None:
    claims = keys.verify_user_token(secret, token)
    if claims is None:
        return None
    row = conn.execute(
        "SELECT id FROM users WHERE id = ? AND org_id = ?", (claims["sub"], claims["org"])
    ).fetchone()
    if row is None:
        return None
    roles = tuple(str(role) for role in claims["roles"])
    return Principal(USER, str(claims["org"]), user_id=row["id"], roles=roles, claims=claims)


def authorize(principal: Principal, operation_id: str, kinds: frozenset[str]) -> None:
    if principal.kind not in kinds:
        if principal.kind == SOURCE:
            raise ApiProblem(403, "A source key may only be used for lead intake (POST /leads).")
        raise ApiProblem(403, f"This operation does not accept a {principal.kind} credential.")
    if principal.read_only and operation_id in WRITE_OPERATIONS:
        raise ApiProblem(403, "The user's role is read-only.")
