"""Stage 2: what each operation is, from what the contract says of it.

Its parameters (each one's argument or option), its body (the fields --help lists, the
phone numbers sent in E.164, a form's files), its answer (its kind and table columns),
whether a failed attempt may be repeated, the credentials it takes, how to wait for its
outcome. Built as :class:`~leadctl.contract.index.model.Classified`, changed by no one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.contract.destructive import is_destructive
from leadctl.contract.document import Document
from leadctl.contract.effects import METHOD_RETRY_SAFE, acting_verb
from leadctl.contract.entries import Body, BodyField, Idempotency, Parameter, Pending, Response
from leadctl.contract.index.columns import (
    LIST_COLUMNS,
    OBJECT_COLUMNS,
    SCALAR_TYPES,
    resource_columns,
)
from leadctl.contract.index.model import Classified, Found, Json
from leadctl.contract.index.read import (
    body_schema,
    content,
    first_sentence,
    json_content,
    schema_ref,
)
from leadctl.contract.naming import metavar, option_name
from leadctl.contract.phones import is_messaging, is_phone_value, phone_paths
from leadctl.contract.security import credential_rule

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
# How deep a required object's own fields are listed (contact.phone.number: 2).
NESTED_LEVELS = 2
_CONSTRAINTS = frozenset(
    {
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
        "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
        "const", "not", "oneOf", "anyOf",
    }
)  # fmt: skip


def classify(doc: Document, found: Found) -> Classified:
    spec, method, path = found.spec, found.method, found.path
    operation_id = found.operation_id
    op_id = operation_id or f"{method} {path}"
    credentials = credential_rule(doc.document, spec)
    # Its to/from are phone numbers (cli.md "Commands": phone normalisation).
    messaging = is_messaging(path, op_id, [str(t) for t in spec.get("tags") or ()])
    checked = parameters(doc, found.params, messaging=messaging)
    body = request_body(doc, spec, messaging=messaging)
    schema = body_schema(doc, spec)
    idempotency = idempotency_of(doc, [param for param, _schema in checked], schema)
    params = tuple(
        # leadctl sends a fresh key unless one is given
        param._replace(required=False) if _is_key_header(param, idempotency) else param
        for param, _schema in checked
    )
    retry_safe, retry_reason = retry_safety(method, spec, body, idempotency)
    answer = response(doc, spec, paged=body is not None and body.paged)
    return Classified(
        id=op_id,
        operation_id=operation_id,
        method=method,
        path=path,
        summary=" ".join(str(spec.get("summary") or "").split()),
        description=str(spec.get("description") or "").strip(),
        deprecated=bool(spec.get("deprecated", False)),
        assumed=bool(spec.get("x-leadctl-assumed", False)),
        retry_safe=retry_safe,
        retry_reason=retry_reason,
        kinds=tuple(credentials["kinds"]),
        auth=credentials["auth"],
        idempotency=idempotency,
        params=params,
        body=body,
        response=answer,
        pending=pending_rule(spec.get("x-leadctl-pending")),
        # Its answer is bytes (a redirect to them, or a body that is not JSON): --output-file.
        download=method == "GET" and is_download(doc, spec),
        # Asks before it runs (cli.md "Commands"); batch asks once for the whole run.
        destructive=is_destructive(method, operation_id, str(spec.get("summary") or "")),
        read_kind=read_kind(method, path, body, answer),
        body_schema=schema,
        param_schemas=tuple(
            (param.name, schema) for param, schema in checked if schema is not None
        ),
    )


def _is_key_header(param: Parameter, idempotency: Idempotency | None) -> bool:
    return idempotency is not None and param.where == "header" and param.name == idempotency.name


def read_kind(method: str, path: str, body: Body | None, answer: Response) -> str:
    """ "collection" for a collection read (a GET answering a list or a page, or a POST
    whose body is a collection query), "item" for a GET of one resource by id."""
    ends_in_param = path.rstrip("/").endswith("}")
    if method == "POST" and body is not None and body.collection_query:
        return "collection"
    if method != "GET":
        return "other"
    if answer.kind in ("array", "collection") or (answer.kind == "object" and answer.paged):
        return "other" if ends_in_param else "collection"
    if ends_in_param and answer.kind == "object":
        return "item"
    return "other"


def retry_safety(
    method: str, spec: Mapping[str, Any], body: Body | None, idempotency: Idempotency | None
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
    if body is not None and body.collection_query:
        return True, "a collection read: its body is a query"
    if idempotency:
        return True, "sent with an idempotency key, the same on every retry"
    return False, "not retry-safe"


def idempotency_of(doc: Document, params: list[Parameter], schema: Json) -> Idempotency | None:
    """An Idempotency-Key header parameter, else a top-level field of the body ``schema``
    whose name ends in idempotencyKey (case aside)."""
    for param in params:
        if param.where == "header" and param.name.lower() == IDEMPOTENCY_HEADER:
            return Idempotency("header", param.name)
    if schema is not None:
        for name in doc.properties(schema):
            if name.lower().endswith(IDEMPOTENCY_FIELD_SUFFIX):
                return Idempotency("body", name)
    return None


def parameters(
    doc: Document, params: tuple[Mapping[str, Any], ...], *, messaging: bool = False
) -> list[tuple[Parameter, Json]]:
    """Each parameter a command takes, and its schema where a value needs checking beyond
    its type and choices (kept in schemas.json), else None."""
    out: list[tuple[Parameter, Json]] = []
    flags: set[str] = set()
    for param in params:
        where = param.get("in")
        name = str(param.get("name", ""))
        if where not in ("path", "query", "header") or not name:
            continue  # cookies: a CLI has no cookie jar to speak of
        if where == "header" and name.lower() in ("authorization", "content-type", "accept"):
            continue  # leadctl sets these itself
        schema = param.get("schema") or {}
        argument = metavar(name) if where == "path" else None
        flag = None
        if where != "path":
            flag = option_name(name)
            if flag in RESERVED_FLAGS or flag in flags:
                flag = f"--{where}-{flag[2:]}"
            flags.add(flag)
        checked = _has_constraints(doc, schema)
        out.append(
            (
                Parameter(
                    name=name,
                    where=str(where),
                    required=bool(param.get("required", where == "path")),
                    description=" ".join(str(param.get("description") or "").split()),
                    metavar=argument,
                    flag=flag,
                    checked=checked,
                    **_param_value(doc, name, schema, messaging=messaging),
                ),
                schema if checked else None,
            )
        )
    return out


def _param_value(doc: Document, name: str, schema: Any, *, messaging: bool) -> dict[str, Any]:
    """A parameter's type, and what else its value is: an array's item type, choices,
    default, time format, whether it is a phone number."""
    kind = doc.type_of(schema) or "string"
    shown = kind if kind in (*SCALAR_TYPES, "array") else "string"
    found: dict[str, Any] = {"type": shown}
    items = doc.keyword(schema, "items") if kind == "array" else None
    if kind == "array":
        item_kind = doc.type_of(items or {}) or "string"
        found["items"] = item_kind if item_kind in SCALAR_TYPES else "string"
    enum = doc.keyword(items if kind == "array" else schema, "enum")
    if isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum):
        found["enum"] = tuple(enum)
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
    return found


def _has_constraints(doc: Document, schema: Any) -> bool:
    """Whether a value needs more checking than its type and enum (which the flag does)."""
    for branch in doc.branches(schema):
        if _CONSTRAINTS.intersection(branch):
            return True
        items = branch.get("items")
        if isinstance(items, Mapping) and _has_constraints(doc, items):
            return True
    return False


def request_body(doc: Document, spec: Mapping[str, Any], *, messaging: bool = False) -> Body | None:
    request = doc.resolve(spec.get("requestBody"))
    if not isinstance(request, Mapping):
        return None
    found = content(request.get("content"))
    if found is None:
        media = next(iter(request.get("content") or {}), "")
        return Body(required=bool(request.get("required")), media=str(media), json=False)
    media, kind, media_spec = found
    schema = media_spec.get("schema") or {}
    props = doc.properties(schema)
    required = doc.required(schema)
    ref = schema_ref(doc, schema)
    paging = "continuationToken" in props and "pageSize" in props
    form = kind != "json"
    return Body(
        required=bool(request.get("required")),
        media=media,
        json=not form,
        paged=not form and paging,
        collection_query=not form
        and (paging or bool(ref and ref.rsplit("/", 1)[-1].endswith("RequestDataOptions"))),
        schema_ref=ref,
        description=" ".join(str(request.get("description") or "").split()),
        fields=tuple(
            body_field(doc, name, sub, name in required, messaging=messaging)
            for name, sub in props.items()
        ),
        # sent in E.164, wherever they sit
        phones=tuple(phone_paths(doc, schema, messaging=messaging)),
        form=kind if form else None,
        files=tuple(name for name, sub in props.items() if _is_file(doc, sub)) if form else (),
        # The contract says in so many words that the form may be left out.
        empty_allowed=form and request.get("required") is False,
    )


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


def body_field(
    doc: Document,
    name: str,
    schema: Any,
    required: bool,
    *,
    parent: str | None = None,
    messaging: bool = False,
) -> BodyField:
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
    enum = doc.keyword(schema, "enum")
    description = doc.keyword(schema, "description")
    path = f"{parent}.{name}" if parent else name
    holder = items if items is not None and doc.type_of(items) == "object" else schema
    fields: tuple[BodyField, ...] = ()
    if path.count(".") < NESTED_LEVELS and required and doc.type_of(holder) == "object":
        inner = doc.required(holder)
        fields = tuple(
            body_field(doc, sub_name, sub, sub_name in inner, parent=path, messaging=messaging)
            for sub_name, sub in doc.properties(holder).items()
        )
    return BodyField(
        name=name,
        type=shown,
        required=required,
        enum=tuple(v for v in enum if v is not None) if isinstance(enum, list) else (),
        description=first_sentence(description) if isinstance(description, str) else None,
        phone=is_phone_value(doc, path, schema, messaging=messaging),
        fields=fields,
    )


def response(doc: Document, spec: Mapping[str, Any], *, paged: bool) -> Response:
    responses = spec.get("responses") or {}
    success = sorted(str(s) for s in responses if str(s).startswith("2"))
    for status in success:
        answer = doc.resolve(responses[status])
        found = json_content(answer.get("content") if isinstance(answer, Mapping) else None)
        if found is None:
            continue
        schema = found[1].get("schema") or {}
        if paged and "items" in doc.properties(schema):
            items = doc.keyword(doc.properties(schema)["items"], "items") or {}
            return Response("collection", _columns(doc, items, LIST_COLUMNS))
        if doc.type_of(schema) == "array":
            items = doc.keyword(schema, "items") or {}
            return Response("array", _columns(doc, items, LIST_COLUMNS))
        props = doc.properties(schema)
        return Response(
            "object",
            _columns(doc, schema, OBJECT_COLUMNS, one_object=True),
            # a page of a collection
            paged="items" in props and doc.type_of(props["items"]) == "array",
        )
    return Response("empty" if success else "object")


def _columns(
    doc: Document, schema: Any, limit: int, *, one_object: bool = False
) -> tuple[tuple[str, ...], ...]:
    found = resource_columns(doc, schema, limit, one_object=one_object)
    return tuple(tuple(column) for column in found)


def is_download(doc: Document, spec: Mapping[str, Any]) -> bool:
    """A read whose success is a redirect (an export's storage URL) or content that is
    not JSON (a file)."""
    for status, raw in (spec.get("responses") or {}).items():
        if str(status).startswith("3"):
            return True
        answer = doc.resolve(raw)
        found = answer.get("content") if isinstance(answer, Mapping) else None
        if str(status).startswith("2") and found and json_content(found) is None:
            return True
    return False


def pending_rule(raw: Any) -> Pending | None:
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
    return Pending(
        field=raw["field"],
        pending=tuple(str(v) for v in raw.get("pending", ())),
        failed=tuple(str(v) for v in raw.get("failed", ())),
        poll=str(raw["poll"]) if raw.get("poll") else None,
        id_field=str(raw.get("idField") or "id"),
        reason_field=str(raw["reasonField"]) if raw.get("reasonField") else None,
        download=str(raw["download"]) if raw.get("download") else None,
    )
