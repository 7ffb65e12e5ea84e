"""Issue 21.2: which operations ask before they run (leadctl.contract.destructive): every
DELETE, and any operation whose operationId or summary says delete, remove, revoke,
archive, cancel or purge as a word."""

from __future__ import annotations

import pytest

from leadctl.contract.destructive import is_destructive


@pytest.mark.parametrize(
    ("method", "operation_id", "summary", "destructive"),
    [
        ("DELETE", "PaymentMethods_Delete", "Remove a payment method", True),
        ("DELETE", None, "", True),
        ("delete", "thing", None, True),
        ("POST", "Leads_Archive", "Archive a lead", True),
        ("POST", "Sms_CancelScheduled", "Cancel a scheduled message", True),
        ("POST", "Automations_CancelRun", "Cancel a run", True),
        ("POST", "Leads_PurgeArchived", "Permanently purge archived leads", True),
        ("POST", "Sources_RevokeIntakeKey", "Revokes the source's intake key", True),
        ("POST", "organizations.removeMember", "", True),
        ("POST", "remove_member", "", True),
        ("PUT", "x", "Deletes every tag of a lead", True),
        # Words, not substrings; describing what a read returns is not doing it.
        ("POST", "Leads_Unarchive", "Restore an archived lead", False),
        ("GET", "Leads_GetArchived", "Get archived leads", False),
        ("GET", "Sms_GetCancelled", "Cancelled messages", False),
        ("POST", "Automations_Rerun", "Run again", False),
        ("POST", "Calls_HangupCall", "Hang up an active call", False),
        ("GET", "Removals_List", "Removal requests", False),
        ("PUT", "Leads_Update", "Update a lead", False),
    ],
)
def test_destructive_operations(
    method: str, operation_id: str | None, summary: str | None, destructive: bool
) -> None:
    assert is_destructive(method, operation_id, summary) is destructive
