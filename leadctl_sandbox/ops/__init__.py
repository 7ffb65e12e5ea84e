"""The operation handlers, one module per resource group, and the table the app dispatches on.

A handler is a plain function of a :class:`Call` (already authenticated, authorized and
validated against the contract) that returns a :class:`Reply` or raises ``ApiProblem``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from leadctl_sandbox.auth import Principal
from leadctl_sandbox.settings import SandboxSettings
from leadctl_sandbox.validation import SchemaValidator


@dataclass
class Call:
    principal: Principal
    conn: sqlite3.Connection
    secret: bytes
    settings: SandboxSettings
    validator: SchemaValidator
    now: datetime
    path: Mapping[str, Any] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    body: Any = None
    raw_body: bytes = b""


@dataclass
class Reply:
    status: int
    body: Any = None  # JSON value; None with 204


Handler = Callable[[Call], Reply]


def handlers() -> dict[str, Handler]:
    from leadctl_sandbox.ops import (
        a2a,
        announcements,
        automations,
        lead_statuses,
        leads,
        leads_read,
        phone_numbers,
        sms,
        sources,
        sources_read,
        status_changes,
        tags,
        users,
    )

    return {
        "updateUserCompliance": users.update_compliance,
        "updateSource": sources.update_source,
        "rotateSourceCredentials": sources.rotate_credentials,
        "updateLeadStatusChange": status_changes.update_status_change,
        "deleteLeadStatusChange": status_changes.delete_status_change,
        "getPhoneNumberStatus": phone_numbers.get_status,
        "listAutomationRuns": automations.list_runs,
        "listLeadStatuses": lead_statuses.list_lead_statuses,
        "a2a": a2a.handle,
        "listAnnouncements": announcements.list_announcements,
        "createLead": leads.create_lead,
        "listMyLeads": leads.list_my_leads,
        # Assumed operations, published only in the sandbox's contract (published.py).
        "sendSms": sms.send,
        "getSms": sms.get,
        "cancelSms": sms.cancel,
        "listTags": tags.list_tags,
        "createTag": tags.create_tag,
        "listSources": sources_read.list_sources,
        "getSource": sources_read.get_source,
        "getLead": leads_read.get_lead,
    }
