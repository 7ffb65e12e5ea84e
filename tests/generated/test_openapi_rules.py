"""The OpenAPI rules of a contract's own version (issue 25.10: checked fast, nothing weaker):
every schema in the document against the version's schema dialect, wherever it is written,
and the rules no meta-schema states; each problem traced to the operations it touches."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest

from leadctl.contract.loading import new_budget
from leadctl.contract.validate import Checked, check_contract
from tests.support.e2e import run_leadctl

VERSIONS = ["3.0.3", "3.1.0", "3.2.0"]
THING = {"$ref": "#/components/schemas/Thing"}


def checked(document: Any) -> Checked:
    return check_contract(document, what="x.json", budget=new_budget("x.json", time.monotonic))


def left_out(document: Any) -> dict[str, list[str]]:
    return {entry["operation"]: entry["reasons"] for entry in checked(document).left_out}


def things(version: str) -> dict[str, Any]:
    """Two operations answer a Thing (a component); one takes an inline body; one neither."""
    ok = {"description": "ok"}
    return {
        "openapi": version,
        "info": {"title": "things", "version": "1"},
        "paths": {
            "/things": {
                "get": {
                    "operationId": "listThings",
                    "responses": {
                        "200": {
                            **ok,
                            "content": {
                                "application/json": {"schema": {"type": "array", "items": THING}}
                            },
                        }
                    },
                },
                "post": {
                    "operationId": "createThing",
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"name": {"type": "string"}},
                                }
                            }
                        }
                    },
                    "responses": {"201": ok},
                },
            },
            "/things/{id}": {
                "get": {
                    "operationId": "getThing",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                    "responses": {
                        "200": {**ok, "content": {"application/json": {"schema": THING}}}
                    },
                }
            },
            "/health": {"get": {"operationId": "health", "responses": {"200": ok}}},
        },
        "components": {
            "schemas": {"Thing": {"type": "object", "properties": {"name": {"type": "string"}}}}
        },
    }


def body_schema(document: dict[str, Any]) -> dict[str, Any]:
    post = document["paths"]["/things"]["post"]
    schema: dict[str, Any] = post["requestBody"]["content"]["application/json"]["schema"]
    return schema


USERS_OF_THING = {"GET /things", "GET /things/{id}"}


@pytest.mark.parametrize("version", VERSIONS)
def test_the_small_contract_is_whole(version: str) -> None:
    found = checked(things(version))
    assert (found.left_out, found.ignored) == ([], [])


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    ("where", "users", "expected"),
    [
        ("component", USERS_OF_THING, ["#/components/schemas/Thing", "type", "12"]),
        ("component-property", USERS_OF_THING, ["#/components/schemas/Thing", "minLength"]),
        ("inline-body", {"POST /things"}, ["requestBody", "schema/type", "12"]),
        ("inline-body-property", {"POST /things"}, ["properties/name/maxItems", "-3"]),
    ],
)
def test_a_schema_breaking_its_dialect_leaves_out_the_operations_using_it(
    version: str, where: str, users: set[str], expected: list[str]
) -> None:
    document = things(version)
    thing = document["components"]["schemas"]["Thing"]
    if where == "component":
        thing["type"] = 12
    elif where == "component-property":
        thing["properties"]["name"]["minLength"] = -1
    elif where == "inline-body":
        body_schema(document)["type"] = 12
    else:
        body_schema(document)["properties"]["name"]["maxItems"] = -3
    reasons = left_out(document)

    assert set(reasons) == users
    for operation in users:
        assert any(all(part in r for part in expected) for r in reasons[operation]), reasons


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    ("change", "users", "expected"),
    [
        ("duplicate-parameter", {"POST /things"}, "Duplicate parameter 'q'"),
        ("duplicate-operation-id", {"GET /health"}, "Operation ID 'listThings'"),
        ("required-nowhere", USERS_OF_THING, "Required list has not defined properties: ['size']"),
    ],
)
def test_a_rule_no_meta_schema_states_leaves_out_the_operations_it_touches(
    version: str, change: str, users: set[str], expected: str
) -> None:
    document = things(version)
    post = document["paths"]["/things"]["post"]
    query = {"name": "q", "in": "query", "schema": {"type": "integer"}}
    if change == "duplicate-parameter":
        post["parameters"] = [query, dict(query)]
    elif change == "duplicate-operation-id":
        document["paths"]["/health"]["get"]["operationId"] = "listThings"
    elif change == "required-nowhere":
        thing = document["components"]["schemas"]["Thing"]
        document["components"]["schemas"]["Thing"] = {
            "allOf": [thing],
            "required": ["name", "size"],
        }
    reasons = left_out(document)

    assert set(reasons) == users
    for operation in users:
        assert any(expected in r for r in reasons[operation]), reasons


@pytest.mark.parametrize("version", VERSIONS)
def test_what_the_rules_allow_is_kept(version: str) -> None:
    document = things(version)
    schemas = document["components"]["schemas"]
    # Required names defined by a part the allOf refers to; defaults their schemas admit.
    schemas["Named"] = {
        "allOf": [THING],
        "properties": {"note": {"type": "string"}},
        "required": ["name", "note"],
    }
    schemas["Thing"]["properties"]["size"] = {"type": "integer", "minimum": 1, "default": 3}
    if version.startswith("3.0"):
        # 3.0: a null default of a nullable schema, also inside an object's default.
        schemas["Thing"]["properties"]["name"].update(nullable=True, default=None)
        schemas["Thing"]["default"] = {"name": None}
        schemas["Named"]["properties"]["best"] = {"allOf": [THING], "default": {"name": None}}
    document["paths"]["/things/{id}"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ] = {"$ref": "#/components/schemas/Named"}

    found = checked(document)
    assert (found.left_out, found.ignored, found.warnings) == ([], [], [])


@pytest.mark.parametrize("version", VERSIONS)
def test_a_default_its_schema_does_not_admit_is_a_warning_at_its_place(version: str) -> None:
    """Issue 32: a default is documentation; one that does not match its schema is named
    with its JSON pointer and every operation is kept."""
    document = things(version)
    schemas = document["components"]["schemas"]
    schemas["Size"] = {"type": "integer", "maximum": 10}
    schemas["Thing"]["properties"]["name"]["default"] = 7
    # Through a $ref: the schema the default belongs to is the referenced one.
    schemas["Thing"]["properties"]["size"] = {"allOf": [{"$ref": "#/components/schemas/Size"}]}
    schemas["Thing"]["properties"]["size"]["default"] = 11
    # Inside an object's default, and on a parameter of the operation.
    schemas["Thing"]["default"] = {"name": False}
    post = document["paths"]["/things"]["post"]
    post["parameters"] = [
        {"name": "q", "in": "query", "schema": {"type": "integer", "default": "many"}}
    ]
    found = checked(document)

    assert (found.left_out, found.ignored) == ([], [])
    assert found.warnings == [
        {"pointer": "#/paths/~1things/post/parameters/0/schema/default", "message": ANY},
        {"pointer": "#/components/schemas/Thing/default", "message": ANY},
        {"pointer": "#/components/schemas/Thing/properties/name/default", "message": ANY},
        {"pointer": "#/components/schemas/Thing/properties/size/default", "message": ANY},
    ]
    messages = [warning["message"] for warning in found.warnings]
    assert "many" in messages[0] and "integer" in messages[0]
    assert messages[1].startswith("name: false")
    assert "7" in messages[2] and "string" in messages[2]
    assert "maximum of 10" in messages[3]


@pytest.mark.parametrize(
    ("change", "users"),
    [
        ("operation-id-list", {"GET /things"}),
        ("parameter-name-object", {"POST /things"}),
        ("content-list", {"POST /things"}),
        ("answers-list", {"POST /things"}),
        ("component-named-parameters", {"GET /things/{id}"}),
        ("tags-odd", set()),
    ],
)
def test_odd_shapes_of_a_hostile_contract_are_reported_where_they_are(
    change: str, users: set[str]
) -> None:
    document = things("3.2.0")
    post = document["paths"]["/things"]["post"]
    if change == "operation-id-list":
        document["paths"]["/things"]["get"]["operationId"] = ["listThings"]
    elif change == "parameter-name-object":
        post["parameters"] = [{"name": {"a": 1}, "in": "query", "schema": {}}] * 2
    elif change == "content-list":
        post["requestBody"]["content"] = [1]
    elif change == "answers-list":
        post["responses"] = [1]
    elif change == "component-named-parameters":
        # A rule no meta-schema states, in a schema whose name is a keyword elsewhere.
        document["components"]["schemas"]["parameters"] = {"allOf": [{}], "required": ["x"]}
        answer = document["paths"]["/things/{id}"]["get"]["responses"]["200"]
        answer["content"]["application/json"]["schema"] = {
            "$ref": "#/components/schemas/parameters"
        }
    else:
        document["tags"] = [{"name": ["a"], "parent": {"b": 1}}, 5]
    found = checked(document)

    assert {entry["operation"] for entry in found.left_out} == users
    assert (found.ignored != []) == (change == "tags-odd")


def test_problems_with_tags_are_listed_and_change_nothing() -> None:
    document = things("3.2.0")
    document["tags"] = [{"name": "a"}, {"name": "a"}, {"name": "b", "parent": "nowhere"}]
    found = checked(document)

    assert found.left_out == []
    assert "tags: Duplicate tag name 'a'" in found.ignored
    assert "tags: Tag 'b' references unknown parent tag 'nowhere'" in found.ignored


def test_an_unknown_schema_dialect_is_listed_and_schemas_are_still_checked() -> None:
    document = things("3.1.0")
    document["jsonSchemaDialect"] = "https://dialects.example.test/mine"
    document["components"]["schemas"]["Thing"]["type"] = 12
    found = checked(document)

    assert any("Unknown JSON Schema dialect" in problem for problem in found.ignored)
    assert {entry["operation"] for entry in found.left_out} == USERS_OF_THING


def test_checking_a_contract_loads_no_pure_python_schema_validator() -> None:
    """Importing openapi-spec-validator (pydantic-settings, jsonschema, referencing) cost
    more than checking a 1,500-operation contract on jsonschema-rs."""
    program = (
        "import sys, time\n"
        "from leadctl.contract.loading import new_budget\n"
        "from leadctl.contract.validate import check_contract\n"
        "from tests.generated.test_openapi_rules import things\n"
        "document = things('3.1.0')\n"
        "document['components']['schemas']['Thing']['properties']['name']['default'] = 7\n"
        "found = check_contract(document, what='x', budget=new_budget('x', time.monotonic))\n"
        "assert len(found.warnings) == 1 and not found.left_out, found\n"
        "heavy = ('openapi_spec_validator', 'openapi_schema_validator', 'jsonschema')\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in heavy))\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"


SERVICE = {"LEADCTL_BASE_URL": "http://127.0.0.1:9"}


def import_file(tmp_path: Path, document: dict[str, Any]) -> Any:
    """`leadctl contract import FILE -o json` of ``document``, with the installed leadctl."""
    path = tmp_path / "things.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return run_leadctl(["contract", "import", str(path), "-o", "json"], env=SERVICE)


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_contract_import_leaves_out_what_breaks_a_schema_and_names_where(
    tmp_path: Path, version: str
) -> None:
    document = things(version)
    body_schema(document)["type"] = 12
    document["components"]["schemas"]["Thing"]["properties"]["name"]["minLength"] = -1
    imported = import_file(tmp_path, document)

    assert imported.exit_code == 0, imported.stderr
    summary = json.loads(imported.stdout)
    reasons = {entry["operation"]: entry["reasons"] for entry in summary["leftOut"]}
    assert set(reasons) == {"POST /things", *USERS_OF_THING}
    assert any("requestBody/" in r and "schema/type" in r for r in reasons["POST /things"])
    for operation in USERS_OF_THING:
        assert any(
            "#/components/schemas/Thing" in r and "minLength" in r for r in reasons[operation]
        )
    assert summary["operations"] == 1  # GET /health
    assert "warning: left out POST /things: requestBody/" in imported.stderr


def test_contract_import_keeps_an_operation_whose_default_is_wrong_and_names_it(
    tmp_path: Path,
) -> None:
    document = things("3.0.3")
    post = document["paths"]["/things"]["post"]
    post["parameters"] = [
        {"name": "limit", "in": "query", "schema": {"type": "integer", "default": "ten"}}
    ]
    imported = import_file(tmp_path, document)

    assert imported.exit_code == 0, imported.stderr
    summary = json.loads(imported.stdout)
    assert (summary["operations"], summary["leftOut"]) == (4, [])
    pointer = "#/paths/~1things/post/parameters/0/schema/default"
    assert summary["warnings"] == [
        {"pointer": pointer, "message": '"ten" is not of type "integer"'}
    ]
    assert (
        f"warning: default kept at {pointer}, though its schema does not admit it: "
        '"ten" is not of type "integer"'
    ) in imported.stderr
    assert "4 operations" in imported.stderr and "1 defaults kept" in imported.stderr
    shown = run_leadctl(["contract", "show", "-o", "json"], env=SERVICE)
    assert json.loads(shown.stdout)["warnings"] == summary["warnings"]
