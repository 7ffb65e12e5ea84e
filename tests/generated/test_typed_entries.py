"""The compiled index is decoded once into typed values (issue 25 point 5): every key the
compiler writes is one the decoder reads, and the tree decodes only the operations an
invocation uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from leadctl.cli.generated_tree import GeneratedTree
from leadctl.contract.index import compile_index, curated_command_names
from leadctl.contract.operations import Operation
from leadctl.contract.store import ActiveIndex
from tests.generated.test_natural_names import compiled

CONTRACTS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts"
FIXTURES = ("aspnet-3.1.json", "traits-3.1.json", "thirdparty-contacts-3.1.json")


class Reads(dict[str, Any]):
    """A JSON object that records which of its keys were read."""

    def __init__(self, raw: dict[str, Any], where: str, log: dict[str, set[str]]) -> None:
        super().__init__(
            {key: _watched(value, f"{where}.{key}", log) for key, value in raw.items()}
        )
        self.where = where
        self.log = log
        log.setdefault(where, set())

    def __getitem__(self, key: str) -> Any:
        self.log[self.where].add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.log[self.where].add(key)
        return super().get(key, default)


def _watched(value: Any, where: str, log: dict[str, set[str]]) -> Any:
    if isinstance(value, dict):
        return Reads(value, where, log)
    if isinstance(value, list):
        return [_watched(item, f"{where}[]", log) for item in value]
    return value


def _keys(raw: Any, where: str, found: dict[str, set[str]]) -> None:
    if isinstance(raw, dict):
        for key, value in raw.items():
            found.setdefault(where, set()).add(key)
            _keys(value, f"{where}.{key}", found)
    elif isinstance(raw, list):
        for item in raw:
            _keys(item, f"{where}[]", found)


def compiled_operations(name: str) -> list[dict[str, Any]]:
    raw = (CONTRACTS / name).read_bytes()
    index, _schemas = compile_index(
        json.loads(raw),
        raw=raw,
        source=name,
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version="test",
    )
    operations: list[dict[str, Any]] = index["operations"]
    return operations


@pytest.mark.parametrize("name", FIXTURES)
def test_every_key_the_compiler_writes_is_decoded(name: str) -> None:
    written: dict[str, set[str]] = {}
    read: dict[str, set[str]] = {}
    for entry in compiled_operations(name):
        _keys(entry, "op", written)
        Operation.from_entry(Reads(entry, "op", read))
    unread = {where: sorted(keys - read.get(where, set())) for where, keys in written.items()}
    assert {where: keys for where, keys in unread.items() if keys} == {}


def test_the_decoded_operation_carries_the_entry() -> None:
    entry = next(
        op
        for op in compiled_operations("traits-3.1.json")
        if op["body"] and op["body"].get("fields")
    )
    op = Operation.from_entry(entry)
    assert op.body is not None
    assert [f.name for f in op.body.fields] == [f["name"] for f in entry["body"]["fields"]]
    assert [p.name for p in op.parameters] == [p["name"] for p in entry["params"]]
    assert [list(c) for c in op.response.columns] == entry["response"]["columns"]
    assert (op.group, op.verb, op.summary) == (entry["group"], entry["verb"], entry["summary"])


def test_the_tree_decodes_only_the_operations_it_uses(tmp_path: Path) -> None:
    operations = compiled_operations("traits-3.1.json")
    generated = [op for op in operations if op["curated"] is None and op["operationId"]]
    used, other = generated[0], generated[-1]
    # An entry nobody uses may be anything: it is never decoded.
    broken = {**other, "params": [{"no name": True}]}
    index = {"groups": {}, "operations": [broken if op is other else op for op in operations]}
    tree = GeneratedTree(ActiveIndex(index, tmp_path / "schemas.json", "test"))
    group = tree.group_command(used["group"], lambda command: None)
    assert group is not None
    assert group.commands[used["verb"]].name == used["verb"]
    found = tree.operation(str(used["operationId"]))
    assert found is not None and found.id == used["id"]
    with pytest.raises(KeyError):
        tree.operation(str(other["operationId"]))


def test_a_group_lists_each_verb_with_the_line_its_built_command_shows(tmp_path: Path) -> None:
    """A group's help takes each verb's line from its entry, without building the verb
    (issue 32): it must be the line the built command gives, a deprecated one included."""
    operations = compiled_operations("traits-3.1.json")
    deprecated = next(op["id"] for op in operations if op["group"] == "tags" and op["verb"])
    index = {
        "groups": {},
        "operations": [
            {**op, "deprecated": True} if op["id"] == deprecated else op for op in operations
        ],
    }
    tree = GeneratedTree(ActiveIndex(index, tmp_path / "schemas.json", "test"))
    checked = []
    for group_name in tree.new_groups(curated=()):
        group = tree.group_command(group_name, lambda command: None)
        assert group is not None
        for name in list(group.commands):
            listed = group.commands.summary(name)
            assert listed == group.commands[name].get_short_help_str(limit=1000), name
            checked.append(listed)
    assert len(checked) > 100
    assert sum(line.endswith("(DEPRECATED)") for line in checked) == 1


@pytest.mark.parametrize("name", FIXTURES)
def test_what_the_compiler_writes_is_what_its_values_decode_to(name: str) -> None:
    """The compiler builds the readers' own typed values and writes them as JSON: each
    part of every entry decodes to a value that writes the same JSON again."""
    from leadctl.contract.entries import (
        body_of,
        idempotency_of,
        parameter_of,
        pending_of,
        response_of,
    )
    from leadctl.contract.index.encode import (
        body_json,
        idempotency_json,
        param_json,
        pending_json,
        response_json,
    )

    for entry in compiled_operations(name):
        assert [param_json(parameter_of(p)) for p in entry["params"]] == entry["params"]
        generated = entry["curated"] is None
        assert body_json(body_of(entry["body"]), fields=generated) == entry["body"]
        assert response_json(response_of(entry["response"])) == entry["response"]
        assert pending_json(pending_of(entry["pending"])) == entry["pending"]
        assert idempotency_json(idempotency_of(entry["idempotency"])) == entry["idempotency"]


def test_a_body_field_without_choices_or_fields_of_its_own_lists_none() -> None:
    """Index format 6: an empty list of choices (an enum of null alone) or of a required
    object's fields is not written; it decodes as before, to none."""
    schema = {
        "type": "object",
        "required": ["meta"],
        "properties": {
            "meta": {"type": "object", "additionalProperties": True},
            "kind": {"enum": [None]},
        },
    }
    document = {
        "openapi": "3.1.0",
        "info": {"title": "things", "version": "1"},
        "paths": {
            "/things": {
                "post": {
                    "operationId": "createThing",
                    "requestBody": {"content": {"application/json": {"schema": schema}}},
                    "responses": {"201": {"description": "made"}},
                }
            }
        },
    }
    (entry,) = compiled(document)["operations"]
    assert entry["body"]["fields"] == [
        {"name": "meta", "type": "object", "required": True},
        {"name": "kind", "type": "any", "required": False},
    ]
    op = Operation.from_entry(entry)
    assert op.body is not None
    assert [(f.name, f.fields, f.enum) for f in op.body.fields] == [
        ("meta", (), ()),
        ("kind", (), ()),
    ]
