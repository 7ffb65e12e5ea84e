"""Every operation leadctl calls: method, path template, retry safety, credential kinds.

Every request goes through this table (``Client.call``), so the retry policy and the
source-key guard are decided here and nowhere else. A test checks it against the bundled
OpenAPI contract.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from leadctl.errors import UsageError

ORG = "org"
USER = "user"
SOURCE = "source"
STAFF = frozenset({ORG, USER})
INTAKE = frozenset({ORG, USER, SOURCE})


@dataclass(frozen=True)
class Operation:
    id: str
    method: str
    path: str
    retry_safe: bool
    kinds: frozenset[str] = STAFF
    # The body is RequestDataOptions and the answer a collection with continuationToken.
    paged: bool = False

    def path_for(self, **params: str) -> str:
        """The path with each {name} replaced by its percent-encoded value."""

        def substitute(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in params:
                raise UsageError(f"missing path parameter {name!r} for {self.method} {self.path}")
            value = str(params[name])
            if value == "":
                raise UsageError(f"{name} must not be empty")
            return quote(value, safe="")

        return re.sub(r"\{([^}]+)\}", substitute, self.path)


_TABLE = (
    Operation("updateUserCompliance", "PUT", "/users/compliance", retry_safe=True),
    Operation("updateSource", "PUT", "/sources/{id}", retry_safe=True),
    Operation(
        "rotateSourceCredentials", "POST", "/sources/{id}/credentials/rotate", retry_safe=False
    ),
    Operation("updateLeadStatusChange", "PUT", "/lead-status-changes/{id}", retry_safe=True),
    Operation("deleteLeadStatusChange", "DELETE", "/lead-status-changes/{id}", retry_safe=True),
    Operation(
        "getPhoneNumberStatus", "GET", "/phone-numbers/{phoneNumber}/status", retry_safe=True
    ),
    Operation("listAutomationRuns", "GET", "/automations/{id}/runs", retry_safe=True),
    Operation("listLeadStatuses", "GET", "/lead-statuses", retry_safe=True),
    Operation("a2a", "POST", "/a2a", retry_safe=False),
    Operation(
        "listAnnouncements", "POST", "/notifications/announcements", retry_safe=True, paged=True
    ),
    Operation("createLead", "POST", "/leads", retry_safe=False, kinds=INTAKE),
    Operation("listMyLeads", "POST", "/leads/all/my", retry_safe=True, paged=True),
)

OPERATIONS: dict[str, Operation] = {op.id: op for op in _TABLE}


def _template_regex(path: str) -> re.Pattern[str]:
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))
    return re.compile(f"^{pattern}/?$")


_MATCHERS = [(_template_regex(op.path), op) for op in _TABLE]


def operation_for(method: str, path: str) -> Operation:
    """The known operation for a raw request, or an ad-hoc one judged by its method.

    Used by ``leadctl api``. An unknown POST is treated as not retry-safe: the service may
    have acted on it.
    """
    method = method.upper()
    bare = path.split("?", 1)[0]
    for regex, op in _MATCHERS:
        if op.method == method and regex.match(bare):
            return op
    return Operation(
        id=f"{method} {bare}",
        method=method,
        path=bare,
        retry_safe=method in ("GET", "HEAD", "OPTIONS", "PUT", "DELETE"),
    )
