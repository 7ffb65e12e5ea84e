"""Group, verb and flag names from a contract's tags, operationIds and parameters."""

from __future__ import annotations

import pytest

from leadctl.contract.naming import (
    fallback_verb,
    kebab,
    metavar,
    option_name,
    path_group,
    shared_prefix,
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


@pytest.mark.parametrize(
    ("operation_id", "tag", "verb"),
    [
        ("Delete an Organization Member", "Organization Members", "delete"),
        ("Retrieve an Organization Member", "Organization Members", "retrieve"),
        ("List an Organization's Members", "Organization Members", "list"),
        ("deleteAnItem", "Items", "delete"),
        ("getTheReport", "Reports", "get"),
        ("Update the Team\u2019s Settings", "Teams", "update-settings"),
        ("getS3Bucket", "Buckets", "get-s-3"),  # only a possessive's s goes, not a word's
    ],
)
def test_verbs_are_never_cut_at_an_article_or_a_possessive(
    operation_id: str, tag: str, verb: str
) -> None:
    assert "-".join(verb_words(operation_id, "GET", "/x", [words(tag)])) == verb


@pytest.mark.parametrize(
    ("paths", "prefix"),
    [
        (["/v1/customers", "/v1/charges/{id}"], ["v1"]),
        (["/lead-service/leads", "/lead-service/tags/{id}"], ["lead-service"]),
        (["/api/v3/contacts", "/api/v3/status", "/health"], []),
        # The resource itself, not a prefix: some path has nothing literal after it.
        (["/widgets", "/widgets/{id}"], []),
        (["/v1/widgets", "/v1/widgets/{id}"], ["v1"]),
        ([], []),
    ],
)
def test_the_prefix_every_untagged_path_shares(paths: list[str], prefix: list[str]) -> None:
    assert shared_prefix(paths) == prefix


@pytest.mark.parametrize(
    ("path", "prefix", "group"),
    [
        ("/v1/customers/{customer}/sources", ["v1"], "customers"),
        ("/api/v3/contacts/{id}", [], "contacts"),
        ("/v2beta1/projects", [], "projects"),
        ("/2024-06-01/charges", [], "charges"),
        ("/lead-service/leads/{id}", ["lead-service"], "leads"),
        ("/{tenant}/reports", [], "reports"),
        ("/v1", [], None),
    ],
)
def test_an_untagged_operation_is_grouped_by_its_resource(
    path: str, prefix: list[str], group: str | None
) -> None:
    assert path_group(path, prefix) == group


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
