"""Issue 21.1: which values are phone numbers (leadctl.contract.phones), the one rule every
command normalises to E.164 by: by format, pattern, description or name; to/from only on
messaging operations; never an identifier (a name ending in Id, _id or Ids)."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.contract.document import Document
from leadctl.contract.phones import is_messaging, is_phone_value, phone_paths

NO_DOC = Document({})
ID_DESCRIPTION = {"type": "string", "description": "The phone number identifier"}


@pytest.mark.parametrize(
    ("path", "schema", "phone"),
    [
        # Identifiers of phone numbers are not phone numbers, whatever else they say.
        ("phoneNumberId", ID_DESCRIPTION, False),
        ("phoneNumberId", {"type": "string", "format": "uuid"}, False),
        ("phone_number_id", {"type": "string"}, False),
        ("phone-number-id", {"type": "string"}, False),
        ("phoneIds", {"type": "array", "items": {"type": "string"}}, False),
        ("phoneID", {"type": "string"}, False),
        ("id", ID_DESCRIPTION, False),
        ("numberRef", ID_DESCRIPTION, False),
        ("phoneNumberId", {"type": "string", "pattern": r"^\d+$"}, False),
        # Phone numbers by format, pattern, description or name.
        ("contact.phone", {"type": "string"}, True),
        ("phoneNumber", {"type": "string", "description": "The number to check."}, True),
        ("contact.mobilePhone", {"type": ["null", "string"]}, True),
        ("owner.home_phone", {"type": "string"}, True),
        ("contact.phone.number", {"type": "string"}, True),
        ("contact.cell", {"type": "string"}, True),
        ("contact.fax", {"type": "string", "description": "E.164"}, True),
        ("contact.other", {"type": "string", "format": "tel"}, True),
        ("forward", {"type": "string", "pattern": r"^\+[1-9]\d{1,14}$"}, True),
        ("recipient", {"type": "string", "description": "The recipient's phone number."}, True),
        # About a phone, not its number.
        ("contact.phoneType", {"type": "string"}, False),
        ("contact.phoneVerifiedAt", {"type": "string", "format": "date-time"}, False),
        ("contact.phone", {"type": "boolean"}, False),
        ("phoneCount", {"type": "integer"}, False),
        ("contact.number", {"type": "string"}, False),
        ("friendlyName", {"type": "string", "description": "A name for the phone number."}, False),
        # to/from are numbers only on a messaging operation (next test).
        ("to", {"type": "string"}, False),
        ("from", {"type": "string"}, False),
    ],
)
def test_a_value_is_a_phone_number_by_its_schema_or_name(
    path: str, schema: dict[str, Any], phone: bool
) -> None:
    assert is_phone_value(NO_DOC, path, schema) is phone


@pytest.mark.parametrize(
    ("path", "schema", "phone"),
    [
        ("to", {"type": "string"}, True),
        ("from", {"type": "string", "description": "One of the organization's numbers."}, True),
        ("from", {"type": "string", "format": "date-time"}, False),
        ("fromId", {"type": "string"}, False),
    ],
)
def test_to_and_from_are_numbers_on_messaging_operations(
    path: str, schema: dict[str, Any], phone: bool
) -> None:
    assert is_phone_value(NO_DOC, path, schema, messaging=True) is phone


@pytest.mark.parametrize(
    ("path", "operation_id", "tags", "messaging"),
    [
        ("/sms/quick-send", "Sms_QuickSend", ["Sms"], True),
        ("/calls/{callId}/transfer", "Calls_TransferCall", ["Calls"], True),
        ("/v2/outbound", "sendTextMessage", [], True),
        ("/analytics/leads", "Analytics_GetLeadAnalytics", ["Analytics"], False),
        ("/usage", "Usage_GetForCurrentOrganization", ["Usage"], False),
    ],
)
def test_messaging_operations_by_their_words(
    path: str, operation_id: str, tags: list[str], messaging: bool
) -> None:
    assert is_messaging(path, operation_id, tags) is messaging


def test_phone_paths_reach_nested_objects_and_list_items() -> None:
    doc = Document(
        {
            "components": {
                "schemas": {
                    "Phone": {
                        "type": "object",
                        "properties": {"number": {"type": "string"}, "type": {"type": "string"}},
                    }
                }
            }
        }
    )
    schema = {
        "type": "object",
        "properties": {
            "contact": {
                "type": "object",
                "properties": {
                    "phone": {"$ref": "#/components/schemas/Phone"},
                    "phoneId": {"type": "string"},
                },
            },
            "backupPhones": {"type": "array", "items": {"type": "string"}},
            "calls": {
                "type": "array",
                "items": {"type": "object", "properties": {"to": {"type": "string"}}},
            },
        },
    }

    assert phone_paths(doc, schema) == ["contact.phone.number", "backupPhones[]"]
    assert phone_paths(doc, schema, messaging=True) == [
        "contact.phone.number",
        "backupPhones[]",
        "calls[].to",
    ]
