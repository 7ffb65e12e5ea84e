"""The one operation model: every request leadctl sends names an :class:`Operation`.

An Operation is built from an entry of the active contract's compiled index
(``leadctl.contract.index``), where its retry safety, credential kinds and idempotency key
were decided once, from what the contract says the operation does. Curated commands are
overlays: they ask for their operation by METHOD and path template (``curated(ctx, "PUT",
"/sources/{id}")``), whatever the operationId, and get the active contract's operation, or
the bundled contract's description when the active one lacks it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from leadctl.config.credential_use import DEFAULT_REQUIREMENTS, Requirement, requirements_of
from leadctl.contract.effects import METHOD_RETRY_SAFE
from leadctl.contract.entries import (
    Body,
    Idempotency,
    Parameter,
    Pending,
    Response,
    body_of,
    idempotency_of,
    parameter_of,
    pending_of,
    response_of,
    text_or_none,
)
from leadctl.contract.store import bundled_index
from leadctl.contract.templates import PATH_PARAM
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.contract.invocation import ContractInvocation, CuratedInvocation
    from leadctl.contract.listing import Listing
    from leadctl.contract.store import ActiveIndex

ORG = "org"
USER = "user"
SOURCE = "source"
STAFF = frozenset({ORG, USER})
INTAKE = frozenset({ORG, USER, SOURCE})
NO_RESPONSE = Response()  # an ad-hoc operation's: an object, no columns chosen


@dataclass(frozen=True)
class Operation:
    id: str  # the operationId, else "METHOD path"
    method: str
    path: str
    retry_safe: bool
    # Credential kinds the operation admits; empty: it takes no credential (security: []).
    kinds: frozenset[str] = STAFF
    # The body is RequestDataOptions and the answer a collection with continuationToken
    # (`api --paginate` says so of a raw request).
    paged: bool = False
    operation_id: str | None = None
    # Why it is (not) retry-safe, for --help: "read", "collection query", "idempotency key"...
    retry_reason: str = ""
    idempotency: Idempotency | None = None
    # Where the credential goes, per alternative of the contract's security.
    requirements: tuple[Requirement, ...] = DEFAULT_REQUIREMENTS
    parameters: tuple[Parameter, ...] = ()
    body: Body | None = None
    response: Response = NO_RESPONSE
    # The active contract lacks this curated operation: it comes from the bundled contract.
    bundled: bool = False
    # It deletes, removes, revokes, archives, cancels or purges something: commands ask
    # first on a terminal and need --yes without one; batch asks once for the whole run
    # (leadctl.contract.destructive).
    destructive: bool = False
    # Its command: the group, the verb (and the names that also reach it), and the curated
    # command ("group verb") that calls it, if one does.
    group: str = ""
    verb: str | None = None
    aliases: tuple[str, ...] = ()
    hidden_aliases: tuple[str, ...] = ()
    curated: str | None = None
    summary: str = ""
    description: str = ""
    deprecated: bool = False
    # The service's documentation does not show it: leadctl assumes it exists.
    assumed: bool = False
    # Its answer is bytes (a redirect to them, or a body that is not JSON): --output-file.
    download: bool = False
    pending: Pending | None = None

    @property
    def anonymous(self) -> bool:
        """No credential is needed, looked up or sent."""
        return not self.kinds

    @property
    def body_media(self) -> str | None:
        return self.body.media if self.body is not None else None

    @property
    def body_schema(self) -> str | None:
        """The body schema's $ref, when it has one."""
        return self.body.schema_ref if self.body is not None else None

    @property
    def response_kind(self) -> str:
        return self.response.kind

    @property
    def waits(self) -> bool:
        """Its answer carries a pending status it can poll until the outcome (--wait)."""
        return self.pending is not None and self.pending.poll is not None

    @classmethod
    def of(cls, listing: Listing, *, bundled: bool = False) -> Operation:
        """The whole operation a listing of the index is the head of."""
        return cls.from_entry(listing.entry, bundled=bundled)

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any], *, bundled: bool = False) -> Operation:
        """The operation of one compiled index entry."""
        body = body_of(entry.get("body"))
        return cls(
            id=str(entry["id"]),
            method=str(entry["method"]),
            path=str(entry["path"]),
            retry_safe=bool(entry.get("retrySafe")),
            kinds=frozenset(str(k) for k in entry.get("kinds", ())),
            paged=body is not None and body.paged,
            operation_id=text_or_none(entry.get("operationId")),
            retry_reason=str(entry.get("retryReason") or ""),
            idempotency=idempotency_of(entry.get("idempotency")),
            requirements=requirements_of(entry.get("auth", ())),
            parameters=tuple(parameter_of(p) for p in entry.get("params", ())),
            body=body,
            response=response_of(entry.get("response")),
            bundled=bundled,
            destructive=bool(entry.get("destructive")),
            group=str(entry.get("group") or ""),
            verb=text_or_none(entry.get("verb")),
            aliases=tuple(str(a) for a in entry.get("aliases", ())),
            hidden_aliases=tuple(str(a) for a in entry.get("hiddenAliases", ())),
            curated=text_or_none(entry.get("curated")),
            summary=str(entry.get("summary") or ""),
            description=str(entry.get("description") or ""),
            deprecated=bool(entry.get("deprecated")),
            assumed=bool(entry.get("assumed")),
            download=bool(entry.get("download")),
            pending=pending_of(entry.get("pending")),
        )

    def with_overrides(self, settings: Mapping[str, Any] | Any) -> Operation:
        """Profile keys retry_safe_operations / retry_unsafe_operations win over the
        contract (by operationId, or "METHOD /path")."""
        names = {self.id, f"{self.method} {self.path}"}
        if self.operation_id:
            names.add(self.operation_id)
        if names & listed(settings.get("retry_unsafe_operations")):
            return replace(self, retry_safe=False, retry_reason="profile retry_unsafe_operations")
        if names & listed(settings.get("retry_safe_operations")):
            return replace(self, retry_safe=True, retry_reason="profile retry_safe_operations")
        return self

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


def listed(value: Any) -> set[str]:
    """The names of a comma-separated profile value."""
    if not isinstance(value, str):
        return set()
    return {part.strip() for part in value.split(",") if part.strip()}


# -- per invocation -----------------------------------------------------------------------


def active_index_of(ctx: ContractInvocation) -> ActiveIndex:
    """The invocation's active contract index, read once per command."""
    return ctx.active_index


def source_key_prefixes(ctx: ContractInvocation) -> list[str]:
    """The prefixes the active contract's source-key scheme says source keys start with."""
    return active_index_of(ctx).source_key_prefixes


def _settings(ctx: ContractInvocation) -> Mapping[str, Any]:
    try:
        return ctx.settings.profile_values
    except UsageError:
        return {}  # `auth login` of a profile that does not exist yet


def curated(ctx: CuratedInvocation, method: str, path: str) -> Operation:
    """The operation a curated command calls: the active contract's operation on METHOD +
    path template, else the bundled contract's (the curated command keeps working)."""
    listing = active_index_of(ctx).find(method, path)
    bundled = False
    if listing is None:
        listing = bundled_index().find(method, path)
        bundled = True
        if listing is None:
            raise LookupError(f"the bundled contract has no {method} {path}")
    found = Operation.of(listing, bundled=bundled)
    # The command passes its path parameters by its own names: the contract's may differ.
    found = replace(found, path=_renamed(found.path, path))

    # The active contract's parameters its flags do not cover, where they were given.
    query = ctx.contract_query(method, path)
    if query:
        found = replace(found, path=f"{found.path}?{query}")
    return found.with_overrides(_settings(ctx))


def _renamed(contract_path: str, curated_path: str) -> str:
    """``contract_path`` with its parameters named as in ``curated_path`` (same template)."""
    names = iter(PATH_PARAM.findall(curated_path))
    return PATH_PARAM.sub(lambda _match: next(names), contract_path)


def operation_for(ctx: ContractInvocation, method: str, path: str) -> Operation:
    """The active contract's operation for a raw request (``leadctl api``), else an ad-hoc
    one judged by its method: an unknown POST is not retry-safe, the service may have acted.
    """
    method = method.upper()
    bare = path.split("?", 1)[0]
    for listing in active_index_of(ctx).listings():
        if listing.method == method and _template_regex(listing.path).match(bare):
            found = Operation.of(listing)
            return replace(found, path=bare).with_overrides(_settings(ctx))
    safe = method in METHOD_RETRY_SAFE
    return Operation(
        id=f"{method} {bare}",
        method=method,
        path=bare,
        retry_safe=safe,
        retry_reason="by method" if safe else "not retry-safe",
    ).with_overrides(_settings(ctx))


def _template_regex(path: str) -> re.Pattern[str]:
    pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))
    return re.compile(f"^{pattern}/?$", re.IGNORECASE)


def bundled_operation(method: str, path: str) -> Operation:
    """The bundled contract's operation on METHOD + path template (tests, benchmarks and
    tools that run outside an invocation)."""

    listing = bundled_index().find(method, path)
    if listing is None:
        raise LookupError(f"the bundled contract has no {method} {path}")
    return Operation.of(listing)


def with_query(op: Operation, query: str) -> Operation:
    """The operation with ``query`` (already encoded) appended to its path."""
    return replace(op, path=f"{op.path}?{query}") if query else op
