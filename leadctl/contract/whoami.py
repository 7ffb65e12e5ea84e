"""Who a credential belongs to: the active contract's current-user read, if it has one.

The reference lists a Users group for "the current user profile" but shows no read of it;
a contract that has one (``GET /users/me`` or the like) lets ``auth status`` say whose
credential it is. Without one, ``auth status`` checks the credential with the cheapest
read every credential may make (``GET /lead-statuses``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadctl.contract.listing import Listing

# The last path segment of a current-user read, and operationIds that name one.
_ME_SEGMENTS = ("me", "current", "self", "whoami", "user")
_ME_OPERATION_ID = re.compile(r"(?i)(current_?user|get_?me$|^me$|whoami|users?_?me$)")


def current_user_operation(operations: Iterable[Listing]) -> Listing | None:
    """The contract's GET of the caller's own user, or None."""
    found = []
    for op in operations:
        path = op.path
        if op.method.upper() != "GET" or "{" in path:
            continue
        segments = [s for s in path.lower().split("/") if s]
        by_path = (
            bool(segments)
            and segments[-1] in _ME_SEGMENTS
            and (len(segments) == 1 or segments[-2] in ("user", "users", "account", "accounts"))
        )
        by_id = bool(_ME_OPERATION_ID.search(op.operation_id or op.id))
        if by_path or by_id:
            found.append((0 if by_path else 1, path, op))
    if not found:
        return None
    return min(found, key=lambda entry: entry[:2])[2]


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def identity(user: Any) -> dict[str, str]:
    """``account`` and ``organization`` from a user object, where it has them."""
    if not isinstance(user, Mapping):
        return {}
    shown: dict[str, str] = {}
    name = " ".join(
        part for part in (_text(user.get("firstName")), _text(user.get("lastName"))) if part
    )
    account = _text(user.get("email")) or _text(user.get("userName")) or _text(user.get("id"))
    if account and name:
        shown["account"] = f"{name} <{account}>"
    elif account or name:
        shown["account"] = account or name
    organization = user.get("currentOrganization") or user.get("organization")
    if isinstance(organization, Mapping):
        org_name, org_id = _text(organization.get("name")), _text(organization.get("id"))
        if org_name and org_id:
            shown["organization"] = f"{org_name} ({org_id})"
        elif org_name or org_id:
            shown["organization"] = org_name or org_id or ""
    return shown
