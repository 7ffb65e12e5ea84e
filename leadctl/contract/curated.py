"""Where the contract meets the hand-written commands.

An operation with a curated command gets no generated verb (cli.md: generated commands
are for "operations with no curated command"), and a tag whose curated group has another
name adds its generated verbs to that group (its kebab-case name stays an alias).
"""

from __future__ import annotations

# operationId -> (group, verb) of the curated command that calls it. A test checks that
# this covers leadctl/operations.py and that every command exists.
CURATED_OPERATIONS: dict[str, tuple[str, str]] = {
    "updateUserCompliance": ("users", "compliance"),
    "updateSource": ("sources", "update"),
    "rotateSourceCredentials": ("sources", "rotate"),
    "updateLeadStatusChange": ("status-changes", "update"),
    "deleteLeadStatusChange": ("status-changes", "delete"),
    "getPhoneNumberStatus": ("numbers", "status"),
    "listAutomationRuns": ("automations", "runs"),
    "listLeadStatuses": ("lead-statuses", "list"),
    "a2a": ("a2a", "call"),
    "listAnnouncements": ("notifications", "announcements"),
    "createLead": ("leads", "create"),
    "listMyLeads": ("leads", "list"),
}

# Contract tag -> curated group, where the kebab-case tag is not already its name.
TAG_GROUPS: dict[str, str] = {
    "LeadStatusChanges": "status-changes",
    "PhoneNumbers": "numbers",
    "Agent": "a2a",
}
