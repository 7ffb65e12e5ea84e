"""The operation handlers, one module per resource group, and the table the app dispatches on.

A handler is a plain function of a :class:`Call` (already authenticated, authorized and
validated against the contract) that returns a :class:`Reply` or raises ``ApiProblem``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from importlib import import_module
from types import MappingProxyType
from typing import Any, NamedTuple

from leadctl_sandbox.auth import Principal
from leadctl_sandbox.settings import SandboxSettings
from leadctl_sandbox.validation import SchemaValidator
from leadctl_sandbox.webhooks import Event

_NOTHING: Mapping[str, Any] = MappingProxyType({})


# A NamedTuple, not a dataclass: every `-p sandbox` command defines it again at its start,
# and a dataclass costs five times as much to define (issue 32).
class Call(NamedTuple):
    principal: Principal
    conn: sqlite3.Connection
    secret: bytes
    settings: SandboxSettings
    validator: SchemaValidator
    now: datetime
    path: Mapping[str, Any] = _NOTHING
    query: Mapping[str, Any] = _NOTHING
    body: Any = None
    raw_body: bytes = b""
    # Webhook events the operation causes, delivered once it is committed; None when
    # deliveries are off.
    events: list[Event] | None = None


class Reply(NamedTuple):
    status: int
    body: Any = None  # JSON value; None with 204


Handler = Callable[[Call], Reply]


# operationId -> (module of leadctl_sandbox.ops, handler function). A module is imported
# when one of its operations is first called: a `-p sandbox` command starts the sandbox in
# its own process and calls one or two operations, not sixteen modules' worth.
HANDLERS: dict[str, tuple[str, str]] = {
    "updateUserCompliance": ("users", "update_compliance"),
    "updateSource": ("sources", "update_source"),
    "rotateSourceCredentials": ("sources", "rotate_credentials"),
    "updateLeadStatusChange": ("status_changes", "update_status_change"),
    "deleteLeadStatusChange": ("status_changes", "delete_status_change"),
    "getPhoneNumberStatus": ("phone_numbers", "get_status"),
    "listAutomationRuns": ("automations", "list_runs"),
    "listLeadStatuses": ("lead_statuses", "list_lead_statuses"),
    "a2a": ("a2a", "handle"),
    "listAnnouncements": ("announcements", "list_announcements"),
    "createLead": ("leads", "create_lead"),
    "listMyLeads": ("leads", "list_my_leads"),
    # Assumed operations, published only in the sandbox's contract (published.py), with
    # operationIds as an ASP.NET service names them.
    "Leads_GetForCurrentUser": ("leads_read", "get_lead"),
    "Sources_GetAllForCurrentUser": ("sources_read", "list_sources"),
    "Sources_GetForCurrentUser": ("sources_read", "get_source"),
    "Automations_GetAllForCurrentOrganization": ("automations_read", "list_automations"),
    "Automations_GetForCurrentOrganization": ("automations_read", "get_automation"),
    "PhoneNumbers_GetAllForCurrentOrganization": ("phone_numbers_read", "list_phone_numbers"),
    "PhoneNumbers_GetForCurrentOrganization": ("phone_numbers_read", "get_phone_number"),
    "LeadStatusChanges_GetAllForCurrentUser": ("status_changes_read", "list_status_changes"),
    "LeadStatusChanges_GetForCurrentUser": ("status_changes_read", "get_status_change"),
    "Tags_GetAllForCurrentOrganization": ("tags", "list_tags"),
    "Tags_Create": ("tags", "create_tag"),
    "Sms_GetAllForCurrentOrganization": ("sms", "list_messages"),
    "Sms_Send": ("sms", "send"),
    "Sms_GetForCurrentOrganization": ("sms", "get"),
    "Sms_Cancel": ("sms", "cancel"),
}


class Handlers(Mapping[str, Handler]):
    """The handler of each operationId, its module imported on first lookup."""

    def __init__(self) -> None:
        self._loaded: dict[str, Handler] = {}

    def __getitem__(self, operation_id: str) -> Handler:
        found = self._loaded.get(operation_id)
        if found is None:
            module, function = HANDLERS[operation_id]  # KeyError: no such operation
            found = getattr(import_module(f"leadctl_sandbox.ops.{module}"), function)
            self._loaded[operation_id] = found
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(HANDLERS)

    def __len__(self) -> int:
        return len(HANDLERS)


def handlers() -> Handlers:
    return Handlers()
