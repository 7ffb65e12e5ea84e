"""The compiled index: groups, verbs, curated operations, the bundled prebuilt copy."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer

from leadctl.cli.app import root
from leadctl.contract import BUNDLED_GROUPS_FILE, BUNDLED_INDEX_FILE, BUNDLED_SCHEMAS_FILE
from leadctl.contract.curated import CURATED_COMMANDS, CURATED_VERBS
from leadctl.contract.index import (
    build_bundled,
    compile_index,
    curated_command_names,
    dump,
    groups_text,
)
from leadctl.contract.templates import template_key
from leadctl_sandbox.published import published_contract
from tests.generated.contracts import widgets


def compiled(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return compile_index(
        document,
        raw=json.dumps(document).encode(),
        source="test",
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version="test",
    )


def commands(index: dict[str, Any]) -> dict[str, str]:
    return {op["id"]: f"{op['group']} {op['verb']}" for op in index["operations"]}


def test_the_sandbox_contract_gives_the_commands_the_issue_names() -> None:
    index, _ = compiled(published_contract())
    generated = {
        op["id"]: f"{op['group']} {op['verb']}" for op in index["operations"] if not op["curated"]
    }
    # The ASP.NET-style operationIds of the sandbox's reads, named by the naming rules.
    assert generated == {
        "Leads_GetForCurrentUser": "leads get",
        "Sources_GetAllForCurrentUser": "sources list",
        "Sources_GetForCurrentUser": "sources get",
        "Automations_GetAllForCurrentOrganization": "automations list",
        "Automations_GetForCurrentOrganization": "automations get",
        "PhoneNumbers_GetAllForCurrentOrganization": "numbers list",
        "PhoneNumbers_GetForCurrentOrganization": "numbers get",
        "LeadStatusChanges_GetAllForCurrentUser": "status-changes list",
        "LeadStatusChanges_GetForCurrentUser": "status-changes get",
        "Tags_GetAllForCurrentOrganization": "tags list",
        "Tags_Create": "tags create",
        "Sms_GetAllForCurrentOrganization": "sms list",
        "Sms_Send": "sms send",
        "Sms_GetForCurrentOrganization": "sms get",
        "Sms_Cancel": "sms cancel",
    }


def test_operations_with_a_curated_command_are_listed_as_curated_only() -> None:
    index, schemas = compiled(published_contract())
    by_template = {template_key(op["method"], op["path"]): op for op in index["operations"]}
    by_id = {op["id"]: op for op in index["operations"]}
    for (method, path), (group, verb) in CURATED_COMMANDS.items():
        entry = by_template[template_key(method, path)]
        assert (entry["group"], entry["verb"]) == (group, verb)
        assert entry["curated"] == f"{group} {verb}"
        assert entry["id"] not in schemas["bodies"]
    # The rule for `leads create --wait` comes with the curated entry.
    assert by_id["createLead"]["pending"]["poll"] == "Leads_GetForCurrentUser"


def test_the_curated_bindings_name_real_commands_and_the_verb_list_matches_the_tree() -> None:
    import importlib

    from leadctl.cli.groups import GROUPS

    tree = {}
    for group, (module_name, _help) in GROUPS.items():
        verbs = getattr(importlib.import_module(module_name), "VERBS", ())
        tree[group] = sorted(verb.name for verb in verbs)
    for group, verb in CURATED_COMMANDS.values():
        assert verb in tree[group], (group, verb)
    # Contract compilation imports no command, so CURATED_VERBS repeats the tables' names:
    # a verb added to a table and not there (or removed from one) fails here.
    assert tree == {group: sorted(verbs) for group, verbs in CURATED_VERBS.items()}


def test_renamed_groups_keep_their_tag_name_as_an_alias() -> None:
    index, _ = compiled(published_contract())
    assert index["groups"]["numbers"]["aliases"] == ["phone-numbers"]
    assert index["groups"]["status-changes"]["aliases"] == ["lead-status-changes"]
    assert index["groups"]["sms"] == {
        "tag": "Sms",
        "help": "Sending SMS/MMS, MMS media upload, cancelling scheduled messages",
        "aliases": [],
    }


def test_paged_operations_pending_rules_and_columns() -> None:
    index, _ = compiled(published_contract())
    by_id = {op["id"]: op for op in index["operations"]}
    assert by_id["Tags_GetAllForCurrentOrganization"]["body"]["paged"] is True
    assert by_id["Tags_GetAllForCurrentOrganization"]["response"] == {
        "kind": "collection",
        "columns": [
            ["id", "text", "whole"],  # an id is never cut
            ["name", "text"],
            ["normalizedName", "text"],
            ["color", "color"],
        ],
    }
    assert by_id["Tags_Create"]["body"]["paged"] is False
    assert by_id["Sms_Send"]["pending"] == {
        "field": "status",
        "pending": ["Queued"],
        "failed": ["Failed"],
        "poll": "Sms_GetForCurrentOrganization",
        "idField": "id",
        "reasonField": "failureReason",
    }
    assert by_id["Sms_Cancel"]["retrySafe"] is True
    assert by_id["Sms_Send"]["retrySafe"] is False  # a POST that is no collection query
    assert by_id["Sms_Send"]["retryReason"] == "not retry-safe"
    assert by_id["Sms_GetForCurrentOrganization"]["kinds"] == ["org", "user"]


def test_verbs_that_collide_fall_back_to_longer_names() -> None:
    index, _ = compiled(widgets())
    found = commands(index)
    # `leads list` is curated: the literal path word tells this one apart.
    assert found["listLeads"] == "leads list-everything"
    assert found["searchPhoneNumbers"] == "numbers search"
    assert found["POST /widgets/{widgetId}/refresh"] == "widgets post-refresh"


def test_parameters_flags_and_checked_schemas() -> None:
    index, schemas = compiled(widgets())
    by_id = {op["id"]: op for op in index["operations"]}
    params = {p["name"]: p for p in by_id["listWidgets"]["params"]}
    assert params["state"]["enum"] == ["open", "closed"] and params["state"]["required"]
    assert params["include"] == {
        "name": "include",
        "in": "query",
        "required": False,
        "type": "array",
        "description": "",
        "items": "string",
        "enum": ["a", "b"],
        "flag": "--include",
    }
    assert params["maxItems"]["checked"] is True
    assert schemas["params"]["listWidgets"] == {
        "maxItems": {"type": "integer", "minimum": 1, "maximum": 10}
    }
    assert "WidgetCreate" in schemas["bundle"]["components"]["schemas"]
    assert "Widget" not in schemas["bundle"]["components"]["schemas"]  # responses need none


def test_a_pending_rule_whose_poll_is_unusable_is_dropped() -> None:
    document = widgets()
    document["paths"]["/widgets/{widgetId}/build"]["post"]["x-leadctl-pending"]["poll"] = (
        "deleteWidget"
    )
    index, _ = compiled(document)
    build = next(op for op in index["operations"] if op["id"] == "buildWidget")
    assert build["pending"]["poll"] is None


def test_the_bundled_index_shipped_with_leadctl_is_up_to_date() -> None:
    index, schemas = build_bundled()
    assert BUNDLED_INDEX_FILE.read_text(encoding="utf-8") == dump(index), (
        "run `uv run python -m leadctl.contract.index`"
    )
    assert BUNDLED_SCHEMAS_FILE.read_text(encoding="utf-8") == dump(schemas)
    assert BUNDLED_GROUPS_FILE.read_text(encoding="utf-8") == groups_text(index)


def test_the_bundled_contract_generates_no_verbs() -> None:
    """All twelve operations of the reference have curated commands."""
    index = json.loads(BUNDLED_INDEX_FILE.read_text(encoding="utf-8"))
    assert all(op["curated"] for op in index["operations"])
    assert len(index["operations"]) == len(CURATED_COMMANDS)


@pytest.mark.parametrize("group", ["sms", "tags"])
def test_generated_groups_are_not_in_the_tree_of_the_bundled_contract(group: str) -> None:
    command: Any = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl")
    assert group not in command.list_commands(ctx)
    assert command.get_command(ctx, group) is None
