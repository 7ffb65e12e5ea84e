"""A document against the published OpenAPI meta-schema of its version, in one jsonschema-rs
pass that also checks every Schema Object in it against the version's schema dialect.

3.1 and 3.2's published schema leaves each Schema Object to a ``$dynamicRef`` to "meta";
binding that anchor to the schema dialect (as the OpenAPI Initiative's "schema-base" does)
checks every schema, wherever it is written (components, parameters, request bodies,
answers, headers), with each error at its own place. 3.0's published schema spells its
Schema Object out itself.

The meta-schemas are the files openapi-spec-validator and openapi-schema-validator ship,
read without importing either package: their import alone (pydantic-settings, jsonschema,
referencing) costs more than checking a 1,500-operation contract. Nothing is fetched: a
reference to anything but these files and the JSON Schema drafts jsonschema-rs carries
fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

# The published schema of each version: (package, file).
PUBLISHED = {
    "3.0": ("openapi_spec_validator", "resources/schemas/v3.0/schema.json"),
    "3.1": ("openapi_spec_validator", "resources/schemas/v3.1/schema.json"),
    "3.2": ("openapi_spec_validator", "resources/schemas/v3.2/schema.json"),
}
# The schema dialect of 3.1 and 3.2 (first) and the vocabulary it uses.
DIALECTS = {
    "3.1": (
        ("openapi_schema_validator", "schemas/oas3.1/metaschema.json"),
        ("openapi_schema_validator", "schemas/oas3.1/vocabularies/base"),
    ),
    "3.2": (
        ("openapi_schema_validator", "schemas/oas3.2/dialect/2025-09-17.json"),
        ("openapi_schema_validator", "schemas/oas3.2/meta/2025-09-17.json"),
    ),
}
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
Location = tuple[str, ...]


def meta_problems(document: Mapping[str, Any], version: str) -> Iterator[tuple[Location, str]]:
    """Every place in ``document`` that breaks its version's meta-schema, with the message."""
    validator = None
    chosen = document.get("jsonSchemaDialect")
    if version in DIALECTS and isinstance(chosen, str) and chosen != _dialect_id(version):
        try:
            validator = _validator(version, chosen)
        except ValueError:
            yield ("jsonSchemaDialect",), f"Unknown JSON Schema dialect: {chosen!r}"
    if validator is None:
        validator = _validator(version, None)
    for error in validator.iter_errors(document):
        best = _deepest(error)
        yield tuple(str(part) for part in best.instance_path), str(best.message)


def _deepest(error: Any) -> Any:
    """Through a oneOf/anyOf failure to the sub-error that got furthest into the value: "not
    valid under any of the schemas" says little, the branch that came closest says what."""
    while branches := getattr(error.kind, "context", None):
        tried = [sub for branch in branches for sub in branch]
        if not tried:
            break
        error = max(tried, key=lambda sub: len(sub.instance_path))
    return error


@lru_cache(maxsize=8)
def _validator(version: str, dialect: str | None) -> Any:
    """The compiled meta-schema (once per process: in-process callers check many documents).
    ``dialect``: the document's jsonSchemaDialect, None for the version's own; ValueError
    when it is not one this machine has."""
    import jsonschema_rs

    published = _read(*PUBLISHED[version])
    if version not in DIALECTS:
        return jsonschema_rs.validator_for(published, retriever=refuse_fetch)
    resources = [(published["$id"], published)]
    files = [_read(*place) for place in DIALECTS[version]]
    resources += [(schema["$id"], schema) for schema in files]
    # Where the published schema says "a schema goes here" ($dynamicRef "#meta"), the
    # outermost "meta" anchor decides what a schema is: this one.
    base = {
        "$schema": DRAFT_2020_12,
        "$id": f"urn:leadctl:openapi-{version}-with-schemas",
        "$ref": published["$id"],
        "$defs": {"schema": {"$dynamicAnchor": "meta", "$ref": dialect or files[0]["$id"]}},
    }
    try:
        return jsonschema_rs.validator_for(base, registry=_registry(resources))
    except jsonschema_rs.ReferencingError as error:
        raise ValueError(str(error)) from error


def _registry(resources: list[tuple[str, Any]]) -> Any:
    import jsonschema_rs

    return jsonschema_rs.Registry(resources, retriever=refuse_fetch)


def refuse_fetch(uri: str) -> Any:
    """jsonschema-rs's retriever for what no registry holds: contracts are hostile."""
    raise ValueError(f"{uri} is not fetched: leadctl checks contracts offline")


def _dialect_id(version: str) -> str:
    return str(_read(*DIALECTS[version][0])["$id"])


@lru_cache(maxsize=16)
def _read(package: str, name: str) -> Any:
    spec = find_spec(package)
    places = spec.submodule_search_locations if spec is not None else None
    if not places:
        raise RuntimeError(f"{package} is not installed: reinstall leadctl")
    return json.loads((Path(places[0]) / name).read_text(encoding="utf-8"))
