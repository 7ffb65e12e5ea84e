"""Reading a contract document: JSON or YAML, OpenAPI 3.0, 3.1 or 3.2.

leadctl compiles OpenAPI 3.1 (JSON Schema 2020-12). A 3.0 document is validated as 3.0
and then rewritten into 3.1 form (``to_31``): ``nullable: true`` becomes a ``"null"``
type (or a ``{"type": "null"}`` branch where there is no type), boolean
``exclusiveMinimum``/``exclusiveMaximum`` become the numbers 3.1 uses, and a schema's
``example`` becomes ``examples: [example]``. A 3.2 document is compiled as it is (3.2 keeps
3.1's schema dialect). Swagger 2.0 is refused.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from leadctl.contract.budget import (
    MAX_DEPTH,
    Budget,
    ContractOverBudget,
    check_shape,
    check_size,
    check_yaml_events,
)
from leadctl.errors import UsageError

# Where a rewritten document keeps the version it was published as.
ORIGINAL_VERSION = "x-leadctl-original-openapi"
# Keys whose values are schemas, or maps / lists of schemas.
_SCHEMA_KEYS = ("items", "not", "additionalProperties", "contains", "propertyNames")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")


def parse_document(raw: bytes, *, what: str, budget: Budget | None) -> dict[str, Any]:
    """The document as an object: JSON, else YAML, within ``budget`` (size, nesting, YAML
    aliases; None for a contract leadctl stored, which passed them when it was imported).
    Anything else is exit 2."""
    import json

    if budget is not None:
        check_size(raw, budget)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{what} is not JSON or YAML (not UTF-8 text)") from None
    document: Any
    try:
        document = json.loads(text)
    except RecursionError:
        # Deeper than the parser's own stack: far over the limit.
        raise ContractOverBudget(what, f"it nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as json_error:
        if text.lstrip().startswith(("{", "[")):
            raise UsageError(f"{what} is not JSON: {json_error}") from None
        document = _yaml(text, what=what, budget=budget)
    if not isinstance(document, dict):
        raise UsageError(
            f"{what} is not an OpenAPI document (not a JSON or YAML object)",
            hint="leadctl reads OpenAPI 3.0, 3.1 and 3.2 contracts as JSON or YAML",
        )
    if budget is not None:
        check_shape(document, budget)
    return document


def _yaml(text: str, *, what: str, budget: Budget | None) -> Any:
    import yaml

    try:
        if budget is not None:
            # Counted from the parser's events before anything is built.
            check_yaml_events(text, budget)
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise UsageError(f"{what} is not JSON or YAML{where}") from None


def openapi_version(document: Mapping[str, Any]) -> str:
    """``3.0``, ``3.1`` or ``3.2``; exit 2 for Swagger 2.0 or anything else."""
    if "swagger" in document:
        raise UsageError(
            f"Swagger {document.get('swagger')} is not supported: leadctl reads OpenAPI 3.0, "
            "3.1 and 3.2 (convert it with swagger2openapi or the service's OpenAPI 3 endpoint)"
        )
    version = document.get("openapi")
    if isinstance(version, str):
        for known in ("3.0", "3.1", "3.2"):
            if version == known or version.startswith(known + "."):
                return known
    raise UsageError(
        f"not an OpenAPI 3 document (openapi is {version!r})",
        hint="leadctl reads OpenAPI 3.0, 3.1 and 3.2 contracts",
    )


def to_31(document: Mapping[str, Any], *, owned: bool = False) -> dict[str, Any]:
    """The document in the form leadctl compiles: a 3.0 document rewritten as 3.1, any
    other returned as a copy. A caller that ``owned`` the document (it parsed it for this
    alone) gets it back rewritten in place: copying a 125-operation contract costs ~12 ms
    of a write's start-up."""
    copied: dict[str, Any] = dict(document) if owned else copy.deepcopy(dict(document))
    version = copied.get("openapi")
    if not (isinstance(version, str) and version.startswith("3.0")):
        return copied
    copied["openapi"] = "3.1.0"
    copied[ORIGINAL_VERSION] = version  # what `contract show` reports
    components = copied.get("components")
    if isinstance(components, dict):
        for name, schema in (components.get("schemas") or {}).items():
            components["schemas"][name] = schema_to_31(schema)
        for group in ("parameters", "headers"):
            for item in (components.get(group) or {}).values():
                _fix_holder(item)
        for group in ("requestBodies", "responses"):
            for item in (components.get(group) or {}).values():
                _fix_content_holder(item)
    for item in (copied.get("paths") or {}).values():
        if not isinstance(item, dict):
            continue
        for param in item.get("parameters", ()):
            _fix_holder(param)
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for param in operation.get("parameters", ()):
                _fix_holder(param)
            _fix_content_holder(operation.get("requestBody"))
            for response in (operation.get("responses") or {}).values():
                _fix_content_holder(response)
    return copied


def _fix_holder(holder: Any) -> None:
    """A parameter or header: its schema, and its content's schemas."""
    if not isinstance(holder, dict):
        return
    if "schema" in holder:
        holder["schema"] = schema_to_31(holder["schema"])
    _fix_content_holder(holder)


def _fix_content_holder(holder: Any) -> None:
    if not isinstance(holder, dict):
        return
    for media in (holder.get("content") or {}).values():
        if isinstance(media, dict) and "schema" in media:
            media["schema"] = schema_to_31(media["schema"])
    for header in (holder.get("headers") or {}).values():
        if isinstance(header, dict) and "schema" in header:
            header["schema"] = schema_to_31(header["schema"])


def schema_to_31(schema: Any) -> Any:
    """One OpenAPI 3.0 schema object in JSON Schema 2020-12 form."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for key in _SCHEMA_KEYS:
        if isinstance(out.get(key), dict):
            out[key] = schema_to_31(out[key])
    for key in _SCHEMA_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [schema_to_31(s) for s in out[key]]
    for key in _SCHEMA_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {name: schema_to_31(s) for name, s in out[key].items()}
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        flag = out.get(bound)
        if flag is True and limit in out:
            out[bound] = out.pop(limit)
        elif isinstance(flag, bool):
            del out[bound]
    if "example" in out:
        example = out.pop("example")
        out.setdefault("examples", [example])
    if out.pop("nullable", False) is True:
        out = _nullable(out)
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
        if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
            schema["enum"] = [*schema["enum"], None]
        return schema
    if isinstance(kind, list):
        if "null" not in kind:
            schema["type"] = [*kind, "null"]
        return schema
    # A $ref or composition without a type: null is one more alternative.
    return {"anyOf": [schema, {"type": "null"}]}
