"""The small index generated commands are built from, compiled once per contract.

Loading a generated command reads only ``index.json`` (names, help, parameters, flags,
body field summaries, output columns); the schemas a request body is validated against
are in ``schemas.json``, read only when a body is sent. Neither needs the contract itself.

The index is compiled when a contract is imported or pulled; the bundled contract's is
shipped prebuilt next to it (``python -m leadctl.contract.index`` rewrites it, and a
test fails when it is stale).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.config.secret_schema import field_is_secret
from leadctl.contract import (
    BUNDLED_GROUPS_FILE,
    BUNDLED_INDEX_FILE,
    BUNDLED_SCHEMAS_FILE,
    CONTRACT_FILE,
    HTTP_METHODS,
    INDEX_FORMAT,
)
from leadctl.contract.curated import CURATED_VERBS, TAG_GROUPS, curated_command
from leadctl.contract.destructive import is_destructive
from leadctl.contract.document import Document
from leadctl.contract.effects import METHOD_RETRY_SAFE, acting_verb
from leadctl.contract.naming import (
    fallback_verb,
    kebab,
    metavar,
    option_name,
    path_group,
    shared_prefix,
    verb_words,
    words,
)
from leadctl.contract.phones import is_messaging, is_phone_value, phone_paths
from leadctl.contract.security import credential_rule, source_key_prefixes

if TYPE_CHECKING:
    from leadctl.contract.budget import Budget

JSON_MEDIA = "application/json"
MULTIPART_MEDIA = "multipart/form-data"
FORM_MEDIA = "application/x-www-form-urlencoded"
IDEMPOTENCY_HEADER = "idempotency-key"
IDEMPOTENCY_FIELD_SUFFIX = "idempotencykey"
# Options every generated verb may carry, which a parameter's flag must not take.
RESERVED_FLAGS = frozenset(
    {
        "--field", "--data", "--wait", "--wait-timeout", "--page-size", "--limit", "--all",
        "--cursor", "--count", "--search", "--filter", "--range", "--order-by", "--output",
        "--columns", "--quiet", "--help", "--yes", "--output-file",
    }
)  # fmt: skip
CURATED_KEYS = (
    "id", "operationId", "group", "verb", "curated", "words", "fallback", "method", "path",
    "summary", "retrySafe", "retryReason", "kinds", "auth", "idempotency",
    "params", "body", "response", "pending", "destructive",
)  # fmt: skip
LIST_COLUMNS = 7
OBJECT_COLUMNS = 24
SCALAR_TYPES = ("string", "integer", "number", "boolean")
# How deep a required object's own fields are listed (contact.phone.number: 2).
NESTED_LEVELS = 2


def contract_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


# -- compiling ----------------------------------------------------------------------------


def compile_index(
    document: Mapping[str, Any],
    *,
    raw: bytes,
    source: str,
    imported_at: str | None,
    curated_verbs: Mapping[str, Iterable[str]],
    leadctl_version: str,
    budget: Budget | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The index and the schema bundle of a (validated) OpenAPI document.

    ``curated_verbs`` maps each curated group to its verb names (or to nothing for a
    single command such as ``api``): generated verbs never take those names.
    """
    doc = Document(document)
    taken = {group: set(verbs) for group, verbs in curated_verbs.items()}
    tag_help = {
        str(tag.get("name")): str(tag.get("description") or "") for tag in document.get("tags", ())
    }
    operations = []
    groups: dict[str, dict[str, Any]] = {}
    bodies: dict[str, Any] = {}
    param_schemas: dict[str, dict[str, Any]] = {}
    refs: set[str] = set()
    untagged = [path for path, _m, spec, _p in _operations(doc) if not spec.get("tags")]
    prefix = shared_prefix(untagged)
    for path, method, spec, path_params in _operations(doc):
        if budget is not None:
            budget.check("compiling the commands")
        tag = (spec.get("tags") or [None])[0]
        group, tag_words = _group_for(tag, path, taken, prefix)
        _note_group(groups, group, tag, tag_help.get(str(tag), ""), taken)
        op = _compile_operation(doc, path, method, spec, path_params, group, tag_words)
        refs |= _move_schemas(doc, op, spec, bodies, param_schemas)
        operations.append(_listed(op))
    clashes = _assign_verbs(operations, taken)
    _link_pending(operations)
    new_groups = [
        [name, entry["help"] or f"Operations tagged {entry['tag']} in the service's contract."]
        for name, entry in groups.items()
        if name not in taken and any(op["group"] == name and not op["curated"] for op in operations)
    ]
    index = {
        "format": INDEX_FORMAT,
        "leadctl": leadctl_version,
        "contract": {
            "title": str(document.get("info", {}).get("title", "")),
            "version": str(document.get("info", {}).get("version", "")),
            "openapi": str(
                document.get("x-leadctl-original-openapi") or document.get("openapi", "")
            ),
            "sha256": contract_hash(raw),
            "source": source,
            "importedAt": imported_at,
        },
        # A value starting with one of these is a source key (cli.md "Credentials").
        "sourceKeyPrefixes": source_key_prefixes(document),
        "groups": groups,
        "newGroups": new_groups,
        "clashes": clashes,
        "operations": operations,
    }
    schemas = {"bundle": _bundle(doc, refs), "bodies": bodies, "params": param_schemas}
    return index, schemas


def _note_group(
    groups: dict[str, dict[str, Any]],
    group: str,
    tag: Any,
    tag_help: str,
    taken: Mapping[str, set[str]],
) -> None:
    """Record the group (its tag and help the first time), and the kebab-case tag as its
    alias where the group has another name."""
    entry = groups.setdefault(group, {"tag": tag, "help": _first_sentence(tag_help), "aliases": []})
    if tag is not None and kebab(str(tag)) != group:
        alias = kebab(str(tag))
        if alias not in entry["aliases"] and alias not in taken:
            entry["aliases"].append(alias)


def _move_schemas(
    doc: Document,
    op: dict[str, Any],
    spec: Mapping[str, Any],
    bodies: dict[str, Any],
    param_schemas: dict[str, dict[str, Any]],
) -> set[str]:
    """Move a generated operation's body schema and its checked parameters' schemas to the
    schema bundle (the index keeps none); the $refs they need."""
    refs: set[str] = set()
    if op["curated"] is None:
        body_schema = _body_schema(doc, spec)
        if body_schema is not None:
            bodies[op["id"]] = body_schema
            refs |= _refs_in(doc, body_schema)
        checked = {p["name"]: p.pop("schema") for p in op["params"] if "schema" in p}
        if checked:
            param_schemas[op["id"]] = checked
            for schema in checked.values():
                refs |= _refs_in(doc, schema)
    for p in op["params"]:
        p.pop("schema", None)
    return refs


def _listed(op: dict[str, Any]) -> dict[str, Any]:
    """The entry as the index lists it: a curated operation is listed for `contract show`
    and `--wait`, and as the operation the curated command calls; the command has the
    rest (its own options and help)."""
    if op["curated"] is None:
        return op
    listed = {key: op[key] for key in CURATED_KEYS}
    if listed["body"]:
        listed["body"] = {k: v for k, v in listed["body"].items() if k != "fields"}
    return listed


def walk_operations(
    doc: Document,
) -> Iterator[tuple[str, str, Mapping[str, Any], list[Mapping[str, Any]], list[Mapping[str, Any]]]]:
    """Each operation: path, METHOD, spec, and its path-level and own parameters, resolved."""
    for path, raw_item in (doc.document.get("paths") or {}).items():
        item = doc.resolve(raw_item)
        shared = [doc.resolve(p) for p in item.get("parameters", ())]
        for method in HTTP_METHODS:
            spec = item.get(method)
            if not isinstance(spec, Mapping):
                continue
            own = [doc.resolve(p) for p in spec.get("parameters", ())]
            yield str(path), method.upper(), spec, shared, own


def _operations(
    doc: Document,
) -> Iterator[tuple[str, str, Mapping[str, Any], list[Mapping[str, Any]]]]:
    """Each operation with its parameters; its own ones replace path-level ones of the same
    name. Path parameters come in the order of the path template: a command's positional
    arguments follow the path, whatever order the contract lists them in."""
    for path, method, spec, shared, own in walk_operations(doc):
        keys = {(p.get("name"), p.get("in")) for p in own}
        params = [p for p in shared if (p.get("name"), p.get("in")) not in keys] + own
        order = {name: i for i, name in enumerate(re.findall(r"\{([^}/]+)\}", path))}
        in_path = sorted(
            (p for p in params if p.get("in") == "path"),
            key=lambda p: order.get(str(p.get("name")), len(order)),
        )
        yield path, method, spec, [*in_path, *(p for p in params if p.get("in") != "path")]


def _group_for(
    tag: Any, path: str, taken: Mapping[str, set[str]], prefix: list[str]
) -> tuple[str, list[list[str]]]:
    """The group's name, and the word runs a verb drops when it repeats them. An untagged
    operation is grouped by its path (its resource, not the API's version)."""
    if tag is None:
        first = path_group(path, prefix) or "default"
        name = kebab(first) or "default"
        if name in taken and not taken[name]:
            name = f"{name}-operations"  # a single command (e.g. `api`) cannot hold verbs
        segments = [s for s in path.strip("/").split("/") if s and "{" not in s]
        skipped = segments[: segments.index(first)] if first in segments else []
        # A verb named from the path drops the group and what came before it (v1...).
        return name, [words(first), *(words(s) for s in skipped if words(s))]
    tag_text = str(tag)
    name = TAG_GROUPS.get(tag_text, kebab(tag_text) or "default")
    if name in taken and not taken[name]:
        name = f"{name}-operations"  # a single command (e.g. `api`) cannot hold verbs
    return name, [words(tag_text), name.split("-")]


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    return text[: end + 1] if end >= 0 else text


def _compile_operation(
    doc: Document,
    path: str,
    method: str,
    spec: Mapping[str, Any],
    path_params: list[Mapping[str, Any]],
    group: str,
    tag_words: list[list[str]],
) -> dict[str, Any]:
    operation_id = spec.get("operationId")
    op_id = str(operation_id) if operation_id else f"{method} {path}"
    curated = curated_command(method, path)
    if curated is not None:
        group = curated[0]
    credentials = credential_rule(doc.document, spec)
    # Its to/from are phone numbers (cli.md "Commands": phone normalisation).
    messaging = is_messaging(path, op_id, [str(t) for t in spec.get("tags") or ()])
    params = _params(doc, path_params, messaging=messaging)
    body = _body(doc, spec, messaging=messaging)
    idempotency = _idempotency(doc, params, spec)
    for param in params:
        if idempotency and param["in"] == "header" and param["name"] == idempotency["name"]:
            param["required"] = False  # leadctl sends a fresh key unless one is given
    retry_safe, retry_reason = _retry_safety(method, spec, body, idempotency)
    response = _response(doc, spec, paged=bool(body and body.get("paged")))
    kind = _read_kind(method, path, body, response)
    cli_name = spec.get("x-cli-name")
    cli_aliases = spec.get("x-cli-aliases")
    return {
        "id": op_id,
        "operationId": str(operation_id) if operation_id else None,
        "group": group,
        "verb": curated[1] if curated else None,
        "curated": " ".join(curated) if curated else None,
        "words": verb_words(
            str(operation_id) if operation_id else None, method, path, tag_words, kind
        ),
        "fallback": fallback_verb(str(operation_id) if operation_id else None, method, path),
        "cliName": kebab(str(cli_name)) if isinstance(cli_name, str) and kebab(cli_name) else None,
        "aliases": [kebab(str(a)) for a in cli_aliases if kebab(str(a))]
        if isinstance(cli_aliases, list)
        else [],
        "groupWords": [w for run in tag_words for w in run],
        "longWords": verb_words(
            str(operation_id) if operation_id else None, method, path, [], kind
        ),
        "method": method,
        "path": path,
        "summary": " ".join(str(spec.get("summary") or "").split()),
        "description": str(spec.get("description") or "").strip(),
        "deprecated": bool(spec.get("deprecated", False)),
        "assumed": bool(spec.get("x-leadctl-assumed", False)),
        "retrySafe": retry_safe,
        "retryReason": retry_reason,
        "kinds": credentials["kinds"],
        "auth": credentials["auth"],
        "idempotency": idempotency,
        "params": params,
        "body": body,
        "response": response,
        "pending": _pending(spec.get("x-leadctl-pending")),
        # Its answer is bytes (a redirect to them, or a body that is not JSON): --output-file.
        "download": method == "GET" and _is_download(doc, spec),
        # Asks before it runs (cli.md "Commands"); batch asks once for the whole run.
        "destructive": is_destructive(
            method, str(operation_id) if operation_id else None, str(spec.get("summary") or "")
        ),
    }


def _read_kind(
    method: str, path: str, body: Mapping[str, Any] | None, response: Mapping[str, Any]
) -> str:
    """ "collection" for a collection read (a GET answering a list or a page, or a POST
    whose body is a collection query), "item" for a GET of one resource by id."""
    ends_in_param = path.rstrip("/").endswith("}")
    if method == "POST" and body and body.get("collectionQuery"):
        return "collection"
    if method != "GET":
        return "other"
    if response.get("kind") in ("array", "collection") or (
        response.get("kind") == "object" and response.get("paged")
    ):
        return "other" if ends_in_param else "collection"
    if ends_in_param and response.get("kind") == "object":
        return "item"
    return "other"


def _retry_safety(
    method: str,
    spec: Mapping[str, Any],
    body: Mapping[str, Any] | None,
    idempotency: Mapping[str, Any] | None,
) -> tuple[bool, str]:
    """Whether a failed attempt may be repeated, from what the operation does (cli.md
    "Retries"), and why: the contract's own mark, a read whose name says it acts (not
    safe), then reads, PUT and DELETE, a POST
    whose body is a collection query, an idempotency key; any other POST or PATCH may
    have acted."""
    marked = spec.get("x-leadctl-retry-safe")
    if isinstance(marked, bool):
        return marked, "the contract says so"
    if method in ("GET", "HEAD"):
        operation_id = spec.get("operationId")
        verb = acting_verb(str(operation_id) if operation_id else None, spec.get("summary"))
        if verb is not None:
            return False, f"a {method} whose operationId or summary says it acts ({verb!r})"
    if method in METHOD_RETRY_SAFE:
        return True, "a read" if method in ("GET", "HEAD", "OPTIONS") else f"a {method}"
    if body and body.get("collectionQuery"):
        return True, "a collection read: its body is a query"
    if idempotency:
        return True, "sent with an idempotency key, the same on every retry"
    return False, "not retry-safe"


def _idempotency(
    doc: Document, params: list[dict[str, Any]], spec: Mapping[str, Any]
) -> dict[str, str] | None:
    """An Idempotency-Key header parameter, else a top-level body field whose name ends
    in idempotencyKey (case aside)."""
    for param in params:
        if param["in"] == "header" and param["name"].lower() == IDEMPOTENCY_HEADER:
            return {"in": "header", "name": param["name"]}
    schema = _body_schema(doc, spec)
    if schema is not None:
        for name in doc.properties(schema):
            if name.lower().endswith(IDEMPOTENCY_FIELD_SUFFIX):
                return {"in": "body", "name": name}
    return None


def _params(
    doc: Document, params: list[Mapping[str, Any]], *, messaging: bool = False
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    flags: set[str] = set()
    for param in params:
        where = param.get("in")
        name = str(param.get("name", ""))
        if where not in ("path", "query", "header") or not name:
            continue  # cookies: a CLI has no cookie jar to speak of
        if where == "header" and name.lower() in ("authorization", "content-type", "accept"):
            continue  # leadctl sets these itself
        schema = param.get("schema") or {}
        kind, value = _param_value(doc, name, schema, messaging=messaging)
        entry: dict[str, Any] = {
            "name": name,
            "in": where,
            "required": bool(param.get("required", where == "path")),
            "type": kind,
            "description": " ".join(str(param.get("description") or "").split()),
            **value,
        }
        if where == "path":
            entry["metavar"] = metavar(name)
        else:
            flag = option_name(name)
            if flag in RESERVED_FLAGS or flag in flags:
                flag = f"--{where}-{flag[2:]}"
            flags.add(flag)
            entry["flag"] = flag
        if _has_constraints(doc, schema):
            entry["schema"] = schema  # moved to the schema file by compile_index
            entry["checked"] = True
        out.append(entry)
    return out


def _param_value(
    doc: Document, name: str, schema: Any, *, messaging: bool
) -> tuple[str, dict[str, Any]]:
    """A parameter's type, and what else its value is: an array's item type, choices,
    default, time format, whether it is a phone number."""
    kind = doc.type_of(schema) or "string"
    shown = kind if kind in (*SCALAR_TYPES, "array") else "string"
    found: dict[str, Any] = {}
    items = doc.keyword(schema, "items") if kind == "array" else None
    if kind == "array":
        item_kind = doc.type_of(items or {}) or "string"
        found["items"] = item_kind if item_kind in SCALAR_TYPES else "string"
    enum = doc.keyword(items if kind == "array" else schema, "enum")
    if isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum):
        found["enum"] = enum
    default = doc.keyword(schema, "default")
    if isinstance(default, (str, int, float, bool)):
        found["default"] = default
    fmt = doc.keyword(schema, "format")
    if shown == "string" and fmt in ("date-time", "date"):
        found["format"] = fmt  # takes the curated commands' time forms
    elif doc.type_of(schema) is None:
        found["untyped"] = True  # a value that reads as a time is one (cli.md)
    if shown == "string" and is_phone_value(doc, name, schema, messaging=messaging):
        found["phone"] = True  # normalised to E.164 with the profile's region
    return shown, found


_CONSTRAINTS = frozenset(
    {
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
        "const", "not", "oneOf", "anyOf",
    }
)  # fmt: skip


def _has_constraints(doc: Document, schema: Any) -> bool:
    """Whether a value needs more checking than its type and enum (which the flag does)."""
    for branch in doc.branches(schema):
        if _CONSTRAINTS.intersection(branch):
            return True
        items = branch.get("items")
        if isinstance(items, Mapping) and _has_constraints(doc, items):
            return True
    return False


def _content(content: Any) -> tuple[str, str, Mapping[str, Any]] | None:
    """The media type leadctl sends, its kind (json, multipart, form) and its spec: JSON
    first (application/json itself when listed: ASP.NET lists application/json-patch+json
    first and means JSON Patch by it; else the first application/*+json), then the two
    form encodings."""
    if not isinstance(content, Mapping):
        return None
    found: dict[str, tuple[str, str, Mapping[str, Any]]] = {}
    for media, spec in content.items():
        base = str(media).split(";")[0].strip().lower()
        value = spec if isinstance(spec, Mapping) else {}
        if base == JSON_MEDIA:
            found["json"] = (str(media), "json", value)
        elif base.startswith("application/") and base.endswith("+json"):
            found.setdefault("json", (str(media), "json", value))
        elif base == MULTIPART_MEDIA:
            found.setdefault("multipart", (str(media), "multipart", value))
        elif base == FORM_MEDIA:
            found.setdefault("form", (str(media), "form", value))
    for kind in ("json", "multipart", "form"):
        if kind in found:
            return found[kind]
    return None


def _json_content(content: Any) -> tuple[str, Mapping[str, Any]] | None:
    found = _content(content)
    if found is None or found[1] != "json":
        return None
    return found[0], found[2]


def _body_schema(doc: Document, spec: Mapping[str, Any]) -> Any:
    request = doc.resolve(spec.get("requestBody"))
    if not isinstance(request, Mapping):
        return None
    found = _content(request.get("content"))
    if found is None:
        return None
    return found[2].get("schema")


def _schema_ref(doc: Document, schema: Any) -> str | None:
    """The first $ref the schema goes through (allOf-wrapped included)."""
    node = schema
    for _ in range(8):
        if not isinstance(node, Mapping):
            return None
        if isinstance(node.get("$ref"), str):
            return str(node["$ref"])
        parts = [p for key in ("allOf", "anyOf", "oneOf") for p in node.get(key, ())]
        parts = [p for p in parts if doc.resolve(p) != {"type": "null"}]
        if len(parts) != 1:
            return None
        node = parts[0]
    return None


def _body(
    doc: Document, spec: Mapping[str, Any], *, messaging: bool = False
) -> dict[str, Any] | None:
    request = doc.resolve(spec.get("requestBody"))
    if not isinstance(request, Mapping):
        return None
    found = _content(request.get("content"))
    if found is None:
        media = next(iter(request.get("content") or {}), "")
        return {"required": bool(request.get("required")), "media": str(media), "json": False}
    media, kind, media_spec = found
    schema = media_spec.get("schema") or {}
    props = doc.properties(schema)
    required = doc.required(schema)
    ref = _schema_ref(doc, schema)
    paging = "continuationToken" in props and "pageSize" in props
    body: dict[str, Any] = {
        "required": bool(request.get("required")),
        "media": media,
        "json": kind == "json",
        "paged": kind == "json" and paging,
        "collectionQuery": kind == "json"
        and (paging or bool(ref and ref.rsplit("/", 1)[-1].endswith("RequestDataOptions"))),
        "schemaRef": ref,
        "description": " ".join(str(request.get("description") or "").split()),
        "fields": [
            _field(doc, name, sub, name in required, messaging=messaging)
            for name, sub in props.items()
        ],
    }
    phones = phone_paths(doc, schema, messaging=messaging)
    if phones:
        body["phones"] = phones  # sent in E.164, wherever they sit
    if kind != "json":
        body["form"] = kind
        body["files"] = [name for name, sub in props.items() if _is_file(doc, sub)]
        # The contract says in so many words that the form may be left out.
        body["emptyAllowed"] = request.get("required") is False
    return body


def _is_file(doc: Document, schema: Any) -> bool:
    """A binary part: format binary (3.0 style) or a contentMediaType / contentEncoding."""
    for branch in doc.branches(schema):
        if branch.get("format") in ("binary", "base64") or "contentMediaType" in branch:
            return True
        if "contentEncoding" in branch:
            return True
        items = branch.get("items")
        if isinstance(items, Mapping) and _is_file(doc, items):
            return True
    return False


def _field(
    doc: Document,
    name: str,
    schema: Any,
    required: bool,
    *,
    parent: str | None = None,
    messaging: bool = False,
) -> dict[str, Any]:
    """A body field's summary for --help, examples and typing. A required object (or
    array of objects) carries its own fields, one level down, as ``fields``."""
    kind = doc.type_of(schema) or "any"
    shown = kind
    items = (doc.keyword(schema, "items") or {}) if kind == "array" else None
    if items is not None:
        shown = f"array of {doc.type_of(items) or 'any'}"
    fmt = doc.keyword(schema, "format")
    if kind == "string" and isinstance(fmt, str):
        shown = fmt
    entry: dict[str, Any] = {"name": name, "type": shown, "required": required}
    enum = doc.keyword(schema, "enum")
    if isinstance(enum, list):
        entry["enum"] = [v for v in enum if v is not None]
    description = doc.keyword(schema, "description")
    if isinstance(description, str):
        entry["description"] = _first_sentence(description)
    path = f"{parent}.{name}" if parent else name
    if is_phone_value(doc, path, schema, messaging=messaging):
        entry["phone"] = True
    holder = items if items is not None and doc.type_of(items) == "object" else schema
    if path.count(".") < NESTED_LEVELS and required and doc.type_of(holder) == "object":
        inner = doc.required(holder)
        entry["fields"] = [
            _field(doc, sub_name, sub, sub_name in inner, parent=path, messaging=messaging)
            for sub_name, sub in doc.properties(holder).items()
        ]
    return entry


def _response(doc: Document, spec: Mapping[str, Any], *, paged: bool) -> dict[str, Any]:
    responses = spec.get("responses") or {}
    success = sorted(str(s) for s in responses if str(s).startswith("2"))
    for status in success:
        response = doc.resolve(responses[status])
        found = _json_content(response.get("content") if isinstance(response, Mapping) else None)
        if found is None:
            continue
        schema = found[1].get("schema") or {}
        if paged and "items" in doc.properties(schema):
            items = doc.keyword(doc.properties(schema)["items"], "items") or {}
            return {"kind": "collection", "columns": _columns(doc, items, LIST_COLUMNS)}
        if doc.type_of(schema) == "array":
            items = doc.keyword(schema, "items") or {}
            return {"kind": "array", "columns": _columns(doc, items, LIST_COLUMNS)}
        found_object: dict[str, Any] = {
            "kind": "object",
            "columns": _columns(doc, schema, OBJECT_COLUMNS, one_object=True),
        }
        props = doc.properties(schema)
        if "items" in props and doc.type_of(props["items"]) == "array":
            found_object["paged"] = True  # a page of a collection
        return found_object
    return {"kind": "empty" if success else "object", "columns": []}


def _is_download(doc: Document, spec: Mapping[str, Any]) -> bool:
    """A read whose success is a redirect (an export's storage URL) or content that is
    not JSON (a file)."""
    for status, raw in (spec.get("responses") or {}).items():
        if str(status).startswith("3"):
            return True
        response = doc.resolve(raw)
        content = response.get("content") if isinstance(response, Mapping) else None
        if str(status).startswith("2") and content and _json_content(content) is None:
            return True
    return False


NAME_FIELDS = ("name", "title", "displayname", "fullname", "label", "subject", "to", "from")
NAME_PARTS = ("firstname", "lastname")
STATUS_WORDS = ("status", "stage", "outcome")
# What a row is, beside its status: a timeline entry's type, a status change's category.
CLASS_WORDS = (*STATUS_WORDS, "type", "kind", "category", "direction", "channel")
MAIN_TIMES = (
    "createdat", "updatedat", "modifiedat", "createdon", "updatedon", "modifiedon",
    "lastmodifiedat", "created", "updated", "modified",
)  # fmt: skip


def list_columns(doc: Document, item_schema: Any) -> list[list[str]]:
    """The table columns of a list's items, as a listing's answer gets them: for a list
    inside one object's answer, drawn as its own table on a terminal."""
    return _columns(doc, item_schema, LIST_COLUMNS)


def _columns(
    doc: Document, schema: Any, limit: int, *, one_object: bool = False
) -> list[list[str]]:
    """Table columns for a resource, most wanted first: the id, what names it, what it is
    (status, type, category), phone numbers, its main time, other statuses and kinds, then
    the rest in the schema's order, and other ids last (wide, and rarely what a person
    reads). A nested object is
    shown by its name field (``user.name``), a list of named objects by their names
    (``tags[].name``). The answer of one object also shows a nested object without a name
    by its plain fields (``summary.totalLeads``) and any list (summed up in a table). An
    entry is [path, kind], with "whole" third for ids and phone numbers, which a table
    never cuts."""
    properties = doc.properties(schema)
    main_time = _main_time(doc, properties)
    columns: list[tuple[int, int, list[str]]] = []
    for order, (name, sub) in enumerate(properties.items()):
        kind = doc.type_of(sub)
        if kind in SCALAR_TYPES:
            column = [name, _column_kind(doc, name, sub, kind)]
            if _is_id(name) or (kind == "string" and is_phone_value(doc, name, sub)):
                column.append("whole")
            columns.append((_column_rank(doc, name, sub, main_time), order, column))
        elif kind == "object":
            label = _name_field(doc, sub)
            if label == "number":  # a phone object: {number, type...}
                columns.append((3, order, [f"{name}.{label}", "text", "whole"]))
            elif label is not None:
                columns.append((2 if _is_status(name) else 6, order, [f"{name}.{label}", "text"]))
            elif one_object:
                for inner_name, inner in doc.properties(sub).items():
                    inner_kind = doc.type_of(inner)
                    if inner_kind in SCALAR_TYPES:
                        inner_column = _column_kind(doc, inner_name, inner, inner_kind)
                        columns.append((6, order, [f"{name}.{inner_name}", inner_column]))
        elif kind == "array":
            items = doc.keyword(sub, "items") or {}
            label = _name_field(doc, items) if doc.type_of(items) == "object" else None
            if label is not None and label != "number":
                columns.append((6, order, [f"{name}[].{label}", "text"]))
            elif one_object or doc.type_of(items) in SCALAR_TYPES:
                columns.append((6, order, [name, "text"]))
    columns.sort(key=lambda entry: entry[:2])
    return [column for _rank, _order, column in columns[:limit]]


def _main_time(doc: Document, properties: Mapping[str, Any]) -> str | None:
    """The time a row is known by: its creation time where it has one (createdAt...),
    else its first date-time (a timeline entry's timestamp)."""
    times = [name for name, sub in properties.items() if doc.keyword(sub, "format") == "date-time"]
    by_name = {name.lower(): name for name in times}
    for wanted in MAIN_TIMES:
        if wanted in by_name:
            return by_name[wanted]
    return times[0] if times else None


def _is_id(name: str) -> bool:
    return name == "id" or name.endswith(("Id", "_id", "ID"))


def _is_status(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in STATUS_WORDS)


def _name_field(doc: Document, schema: Any) -> str | None:
    """The field that names a nested object (``name``, ``title``...), if it has one."""
    props = {n.lower(): n for n, sub in doc.properties(schema).items()}
    for wanted in (*NAME_FIELDS[:5], "email", "number"):
        if wanted in props and doc.type_of(doc.properties(schema)[props[wanted]]) == "string":
            return props[wanted]
    return None


def _column_rank(doc: Document, name: str, schema: Any, main_time: str | None) -> int:
    """0 the id, 1 what names a thing, 2 what it is (type, status, category), 3 phone
    numbers, 4 the main time, 5 other statuses and kinds (processingStatus,
    oldChangeType), 6 the rest, 7 other ids."""
    lowered = name.lower()
    if lowered == "id":
        return 0
    if lowered in NAME_FIELDS or lowered in NAME_PARTS:
        return 1
    if _is_id(name):
        return 7
    text = doc.type_of(schema) == "string"
    if text and lowered in CLASS_WORDS:
        return 2
    if text and is_phone_value(doc, name, schema):
        return 3
    if name == main_time:
        return 4
    if text and lowered.endswith(CLASS_WORDS):
        return 5
    return 6


def _column_kind(doc: Document, name: str, schema: Any, kind: str | None) -> str:
    if field_is_secret(doc, name, schema):
        return "secret"
    if kind == "boolean":
        return "bool"
    if name.lower() == "color":
        return "color"
    if kind in ("integer", "number"):
        return "number"
    if doc.keyword(schema, "format") == "date-time":
        return "datetime"
    return "text"


def _pending(raw: Any) -> dict[str, Any] | None:
    """x-leadctl-pending (assumed, leadctl's own extension): how to wait for the outcome.

    {"field": "processingStatus", "pending": ["Pending"], "failed": ["Rejected"],
     "poll": "getLead", "idField": "id", "reasonField": "processingError"}: the answer's
    ``field`` holds a status; while it is one of ``pending`` the resource is read again
    with ``poll`` (a GET taking the ``idField`` value as its one path parameter); one of
    ``failed`` ends in exit 6, with ``reasonField`` (optional) as the reason. ``download``
    (optional) is the GET, taking the same id, that fetches the settled resource's bytes
    (``--download FILE``, a data export's archive).
    """
    if not isinstance(raw, Mapping) or not isinstance(raw.get("field"), str):
        return None
    return {
        "field": raw["field"],
        "pending": [str(v) for v in raw.get("pending", ())],
        "failed": [str(v) for v in raw.get("failed", ())],
        "poll": str(raw["poll"]) if raw.get("poll") else None,
        "idField": str(raw.get("idField") or "id"),
        "reasonField": str(raw["reasonField"]) if raw.get("reasonField") else None,
        # Only when named: the entries of contracts without it stay as they were.
        **({"download": str(raw["download"])} if raw.get("download") else {}),
    }


def _assign_verbs(
    operations: list[dict[str, Any]], taken: Mapping[str, set[str]]
) -> list[dict[str, Any]]:
    """Each generated operation's verb, the same on every run: an x-cli-name first, then
    short names unique in their group; where several want one name, the operation with
    the shortest path keeps it and the others get a longer one (their distinguishing path
    words, ``by-PARAM``, the method, the whole operationId, a number). Returns the clashes,
    for `contract show`."""
    generated = [op for op in operations if op["curated"] is None]
    used: dict[str, set[str]] = {group: set(verbs) for group, verbs in taken.items()}
    clashes: list[dict[str, Any]] = []
    wanted: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for op in generated:
        op["wanted"] = op["cliName"] or "-".join(op["words"])
        wanted.setdefault((op["group"], op["wanted"]), []).append(op)
    order = sorted(
        generated,
        key=lambda op: (
            op["cliName"] is None,
            len(op["path"].strip("/").split("/")),
            op["path"],
            op["method"],
        ),
    )
    for op in order:
        group_used = used.setdefault(op["group"], set())
        verb = op["wanted"]
        if verb in group_used:
            verb = next(c for c in _candidates(op) if c not in group_used)
        group_used.add(verb)
        op["verb"] = verb
    for (group, verb), ops in wanted.items():
        moved = [op for op in ops if op["verb"] != verb]
        if moved:
            clashes.append(
                {
                    "group": group,
                    "verb": verb,
                    "operations": [f"{op['method']} {op['path']}" for op in ops],
                    "resolved": [f"{op['group']} {op['verb']}" for op in ops],
                    "explicit": any(op["cliName"] == verb for op in ops),
                }
            )
    for op in generated:
        aliases = []
        for alias in [*op["aliases"], op["fallback"]]:
            if alias != op["verb"] and alias not in used[op["group"]] and alias not in aliases:
                aliases.append(alias)
        used[op["group"]].update(aliases)
        op["aliases"] = aliases
        op["hiddenAliases"] = [a for a in aliases if a == op["fallback"]]
    for op in operations:
        for key in ("words", "fallback", "cliName", "wanted", "groupWords", "longWords"):
            op.pop(key, None)
        if op["curated"] is not None:
            op.pop("aliases", None)
    return clashes


def _candidates(op: Mapping[str, Any]) -> Iterator[str]:
    short = str(op["wanted"])
    skip = {*op["groupWords"], *short.split("-")}
    literal = [
        w
        for segment in op["path"].strip("/").split("/")
        if segment and not segment.startswith("{")
        for w in words(segment)
        if w not in skip
    ]
    if literal:
        yield f"{short}-{'-'.join(literal[-2:])}"
    params = [s[1:-1] for s in op["path"].strip("/").split("/") if s.startswith("{")]
    if params:
        yield f"{short}-by-{kebab(params[-1])}"
    long = "-".join(op["longWords"])
    if long != short:
        yield long
    yield f"{short}-{op['method'].lower()}"
    yield str(op["fallback"])
    number = 2
    while True:
        yield f"{short}-{number}"
        number += 1


def _link_pending(operations: list[dict[str, Any]]) -> None:
    """Drop a pending rule whose poll operation is missing or does not take one id."""
    by_id = {op["operationId"]: op for op in operations if op["operationId"]}
    for op in operations:
        rule = op["pending"]
        if rule is None or rule["poll"] is None:
            continue
        poll = by_id.get(rule["poll"])
        path_params = [p for p in poll["params"] if p["in"] == "path"] if poll else []
        if poll is None or poll["method"] != "GET" or len(path_params) != 1:
            rule["poll"] = None


def _refs_in(doc: Document, schema: Any) -> set[str]:
    """Every local $ref reachable from ``schema``."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref not in found:
                found.add(ref)
                stack.append(doc.pointer(ref))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _bundle(doc: Document, refs: set[str]) -> dict[str, Any]:
    """A document holding just the referenced components, at their own pointers, so the
    bodies' $refs resolve against it unchanged."""
    bundle: dict[str, Any] = {}
    for ref in sorted(refs):
        parts = ref[2:].split("/")
        # The whole named component: a pointer into it resolves inside the copy.
        top = parts[:3] if parts[0] == "components" else parts[:1]
        node: Any = doc.document
        target = bundle
        for index, raw in enumerate(top):
            part = raw.replace("~1", "/").replace("~0", "~")
            node = node[part]
            if index == len(top) - 1:
                target[part] = node
            else:
                target = target.setdefault(part, {})
    return bundle


# -- the bundled contract's prebuilt index ------------------------------------------------


def curated_command_names() -> dict[str, list[str]]:
    """Each curated group's verb names (empty for single commands)."""

    return {group: list(verbs) for group, verbs in CURATED_VERBS.items()}


def build_bundled() -> tuple[dict[str, Any], dict[str, Any]]:

    raw = CONTRACT_FILE.read_bytes()
    return compile_index(
        json.loads(raw),
        raw=raw,
        source="bundled",
        imported_at=None,
        curated_verbs=curated_command_names(),
        # Shipped with the code it belongs to: no version to check it against.
        leadctl_version="bundled",
    )


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n"


def groups_text(index: Mapping[str, Any]) -> str:
    """The new groups of a compiled index as ``groups.tsv`` (name, tab, one-line help)."""
    rows = index.get("newGroups", ())
    return "".join(f"{name}\t{' '.join(str(help_text).split())}\n" for name, help_text in rows)


def main() -> int:
    index, schemas = build_bundled()
    BUNDLED_INDEX_FILE.write_text(dump(index), encoding="utf-8")
    BUNDLED_SCHEMAS_FILE.write_text(dump(schemas), encoding="utf-8")
    BUNDLED_GROUPS_FILE.write_text(groups_text(index), encoding="utf-8")
    print(
        f"wrote {BUNDLED_INDEX_FILE.name}, {BUNDLED_SCHEMAS_FILE.name}, {BUNDLED_GROUPS_FILE.name}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
