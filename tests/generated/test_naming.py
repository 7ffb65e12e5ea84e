"""Group, verb and flag names from a contract's tags, operationIds and parameters."""

from __future__ import annotations

import pytest

from leadctl.contract.naming import (
    fallback_verb,
    kebab,
    metavar,
    option_name,
    strip_words,
    verb_words,
    words,
)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("PhoneNumbers", "phone-numbers"),
        ("Sms", "sms"),
        ("SMSStatus", "sms-status"),
        ("getSMSStatus", "get-sms-status"),
        ("LeadStatusChanges", "lead-status-changes"),
        ("user_data_exports", "user-data-exports"),
        ("a2a", "a-2-a"),
        ("listV2Items", "list-v-2-items"),
    ],
)
def test_kebab(name: str, expected: str) -> None:
    assert kebab(name) == expected


@pytest.mark.parametrize(
    ("operation_id", "tag", "verb"),
    [
        ("listTags", "Tags", "list"),
        ("sendSms", "Sms", "send"),
        ("getSource", "Sources", "get"),
        ("getPhoneNumberStatus", "PhoneNumbers", "get-status"),
        ("listLeadStatuses", "LeadStatuses", "list"),
        ("getLeadStatus", "LeadStatuses", "get"),
        ("listCategories", "Category", "list"),
        ("rotateSourceCredentials", "Sources", "rotate-credentials"),
        ("purchase", "PhoneNumbers", "purchase"),
        ("tags", "Tags", "tags"),  # nothing would be left: the name stays whole
    ],
)
def test_verb_drops_the_group_name_when_it_repeats(operation_id: str, tag: str, verb: str) -> None:
    assert "-".join(verb_words(operation_id, "GET", "/x", [words(tag)])) == verb


def test_verb_without_operation_id_is_method_and_literal_segments() -> None:
    assert verb_words(None, "POST", "/sms/{id}/cancel", [["sms"]]) == ["post", "cancel"]
    assert fallback_verb(None, "POST", "/sms/{id}/cancel") == "post-sms-by-id-cancel"
    assert fallback_verb("getSMS", "GET", "/sms/{id}") == "get-sms"


def test_strip_words_matches_plurals_only_as_a_whole_run() -> None:
    assert strip_words(["get", "phone", "number", "status"], ["phone", "numbers"]) == [
        "get",
        "status",
    ]
    assert strip_words(["get", "phone", "status"], ["phone", "numbers"]) == [
        "get",
        "phone",
        "status",
    ]


def test_flags_and_metavars() -> None:
    assert option_name("windowDays") == "--window-days"
    assert option_name("X-Request-Source") == "--x-request-source"
    assert metavar("phoneNumber") == "PHONE_NUMBER"
