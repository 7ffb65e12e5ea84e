"""A mock of any service from its OpenAPI contract (3.0 or 3.1), on a real 127.0.0.1 socket.

    from tests.support.contract_mock import serve_contract

    with serve_contract(document) as mock:       # a stdlib ThreadingHTTPServer in a thread
        mock.base_url                            # "http://127.0.0.1:PORT"
        ... run leadctl against it ...
        mock.requests                            # every request, in arrival order
        mock.violations()                        # ["PUT /sources/s1: body /: ...", ...]
        mock.reply("GET", "/sources/{id}", body={...}, headers={"ETag": '"v7"'})  # next answer

Each request is routed by METHOD and path template (literal segments win over parameters, as
ASP.NET routes) and checked against its operation: path parameters, query parameters (required,
typed, none unknown), header parameters, the credential the operation's ``security`` asks for
(and none where it is ``[]``), the content type against the listed media (``application/*+json``
included), and the body against the request schema with jsonschema-rs (formats checked). JSON,
``multipart/form-data`` and ``application/x-www-form-urlencoded`` bodies are understood. Every
problem is recorded on the request as a violation, and the request is answered as the service
would (400, 401, 404, 405, 415). A valid request gets a schema-valid example synthesized from the
success response's schema: collections carry no ``continuationToken``, so paging ends; responses
that declare an ``ETag`` header carry one, and a PUT whose ``If-Match`` differs gets 412.

Credentials are never recorded: a request keeps which known credential it carried (by name, see
``credentials``) and its other headers.

A property a request schema marks ``readOnly`` is a violation when sent. ``issue_secret`` makes
an operation answer a new secret when a request's flag asks for one (rotation by a PUT's
boolean), and a secret the mock served (issued, or in that field of an answer set with
``reply``) that comes back in a later request is a finding (``findings()``): the request is
valid, but a client sent back what it should have kept to itself.

A success that the contract gives as a redirect (3xx with a ``Location`` header, an export's
download) is answered with a ``Location`` on a second loopback server, ``mock.files`` (a
``FileServer``: another port, so another origin), which serves bytes and records what it was
sent (a credential there is a leak). A body field the schema does not list, at a level that
lists its properties without saying ``additionalProperties``, is valid JSON Schema but dropped
by the service: the request records it in ``unknown_fields`` (``mock.unknown_fields()``), a
finding rather than a violation.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import email.parser
import email.policy
import hashlib
import json
import re
import secrets
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import jsonschema_rs

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
CREDENTIAL_HEADERS = ("authorization",)
START_TIMEOUT = 10.0


# -- 3.0 documents read as 3.1 ---------------------------------------------------------------


def as_openapi_31(document: Mapping[str, Any]) -> dict[str, Any]:
    """A copy whose schemas are JSON Schema 2020-12: ``nullable``, boolean exclusive bounds and
    ``example`` of OpenAPI 3.0 rewritten. A 3.1 document is returned as a plain copy."""
    doc = copy.deepcopy(dict(document))
    if not str(doc.get("openapi", "")).startswith("3.0"):
        return doc
    schemas = doc.get("components", {}).get("schemas", {})
    for name in list(schemas):
        schemas[name] = _schema_31(schemas[name])
    _rewrite_schema_slots(doc.get("paths", {}))
    for section in ("parameters", "requestBodies", "responses", "headers"):
        _rewrite_schema_slots(doc.get("components", {}).get(section, {}))
    return doc


def _rewrite_schema_slots(node: Any) -> None:
    """Rewrite every ``schema`` found under ``node`` (parameters, media types, headers)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "schema" and isinstance(value, dict):
                node[key] = _schema_31(value)
            else:
                _rewrite_schema_slots(value)
    elif isinstance(node, list):
        for item in node:
            _rewrite_schema_slots(item)


def _schema_31(node: Any) -> Any:
    if isinstance(node, list):
        return [_schema_31(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _schema_31(value) for key, value in node.items()}
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(out.get(bound), bool) and out.pop(bound) and limit in out:
            out[bound] = out.pop(limit)
    if "example" in out:
        out["examples"] = [out.pop("example")]
    if out.pop("nullable", False) is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
            if isinstance(out.get("enum"), list) and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            return {"anyOf": [{"type": "null"}, out]}
    return out


# -- schema access -----------------------------------------------------------------------------


class Schemas:
    """Resolution, validation and example synthesis against one (3.1) document."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self._validators: dict[str, Any] = {}

    def resolve(self, node: Any) -> Any:
        for _ in range(64):
            if not (isinstance(node, Mapping) and isinstance(node.get("$ref"), str)):
                return node
            target: Any = self.document
            for raw in node["$ref"][2:].split("/"):
                target = target[raw.replace("~1", "/").replace("~0", "~")]
            node = target
        raise ValueError("a $ref chain does not end")

    def errors(self, schema: Any, value: Any) -> list[str]:
        """Why ``value`` does not satisfy ``schema`` (empty when it does)."""
        key = json.dumps(schema, sort_keys=True)
        validator = self._validators.get(key)
        if validator is None:
            root = {
                "$schema": JSON_SCHEMA_DIALECT,
                "components": self.document.get("components", {}),
                "allOf": [schema],
            }
            validator = jsonschema_rs.validator_for(root, validate_formats=True)
            self._validators[key] = validator
        found = []
        for error in validator.iter_errors(value):
            where = "".join(f"/{part}" for part in error.instance_path)
            found.append(f"{where or '/'}: {error.message}")
        return found

    def branches(self, schema: Any) -> Iterator[Mapping[str, Any]]:
        """The schema and what applies with it through allOf and single non-null choices."""
        node = self.resolve(schema)
        if not isinstance(node, Mapping):
            return
        yield node
        for sub in node.get("allOf", ()):
            yield from self.branches(sub)
        for key in ("anyOf", "oneOf"):
            options = [o for o in node.get(key, ()) if self.resolve(o) != {"type": "null"}]
            if len(options) == 1:
                yield from self.branches(options[0])

    def type_of(self, schema: Any) -> str | None:
        for branch in self.branches(schema):
            kind = branch.get("type")
            if isinstance(kind, str):
                return kind
            if isinstance(kind, list):
                kinds = [k for k in kind if k != "null"]
                if len(kinds) == 1:
                    return str(kinds[0])
        return None

    def properties(self, schema: Any) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for branch in self.branches(schema):
            merged.update(branch.get("properties") or {})
        return merged

    def keyword(self, schema: Any, name: str) -> Any:
        return next((b[name] for b in self.branches(schema) if name in b), None)

    def read_only_sent(self, schema: Any, value: Any, where: str = "", depth: int = 0) -> list[str]:
        """Where ``value`` (a request body) holds a property ``schema`` marks readOnly: OpenAPI
        says a client should not send one, and a service may reject or ignore it."""
        if depth > 16:
            return []
        if isinstance(value, dict):
            found = []
            properties = self.properties(schema)
            for name, item in value.items():
                sub = properties.get(name)
                if sub is None:
                    continue
                if self.keyword(sub, "readOnly") is True:
                    found.append(f"{where}/{name}")
                else:
                    found += self.read_only_sent(sub, item, f"{where}/{name}", depth + 1)
            return found
        if isinstance(value, list):
            items = self.keyword(schema, "items") or {}
            return [
                spot
                for index, item in enumerate(value)
                for spot in self.read_only_sent(items, item, f"{where}/{index}", depth + 1)
            ]
        return []

    def unlisted(self, schema: Any, value: Any, prefix: str = "") -> list[str]:
        """Paths in ``value`` the schema does not list where it lists its properties and
        says nothing of others (``additionalProperties`` absent): valid, and dropped."""
        found: list[str] = []
        if isinstance(value, list):
            items = self.keyword(schema, "items") or {}
            for index, item in enumerate(value):
                found += self.unlisted(items, item, f"{prefix}[{index}].")
            return found
        if not isinstance(value, dict):
            return found
        properties = self.properties(schema)
        says = any("additionalProperties" in b for b in self.branches(schema))
        for name, sub in value.items():
            if name in properties:
                found += self.unlisted(properties[name], sub, f"{prefix}{name}.")
            elif properties and not says:
                found.append(f"{prefix}{name}")
        return found

    def example(self, schema: Any, depth: int = 0, *, required_only: bool = False) -> Any:
        """A value valid against ``schema``: the schema's own example where it gives one.
        ``required_only``: objects hold only their required properties, arrays their minimum."""
        node = self.resolve(schema)
        if not isinstance(node, Mapping):
            return None
        if isinstance(node.get("examples"), list) and node["examples"]:
            return node["examples"][0]
        if "const" in node:
            return node["const"]
        for branch in self.branches(node):
            if isinstance(branch.get("enum"), list):
                return next(v for v in branch["enum"] if v is not None)
        for key in ("oneOf", "anyOf"):
            options = [o for o in node.get(key, ()) if self.resolve(o) != {"type": "null"}]
            if options:
                return self.example(options[0], depth, required_only=required_only)
        parts = [self.resolve(sub) for sub in node.get("allOf", ())]
        kind = self.type_of(node)
        if kind is None and (node.get("properties") or any("properties" in p for p in parts)):
            kind = "object"
        if kind is None and len(parts) == 1:
            return self.example(parts[0], depth, required_only=required_only)
        if kind == "object":
            return self._object_example(node, depth, required_only)
        if kind == "array":
            least = int(node.get("minItems", 0))
            count = least if required_only else max(least, 1 if depth < 4 else 0)
            items = node.get("items", {})
            return [self.example(items, depth + 1, required_only=required_only)] * count
        if kind == "string":
            return self._string_example(node)
        if kind in ("integer", "number"):
            return self._number_example(node, kind)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return "value"

    def _object_example(
        self, node: Mapping[str, Any], depth: int, required_only: bool
    ) -> dict[str, Any]:
        required: set[str] = set()
        for branch in self.branches(node):
            required |= set(branch.get("required", ()))
        out: dict[str, Any] = {}
        for name, sub in self.properties(node).items():
            if name == "continuationToken" and name not in required:
                continue  # the last page: paging ends
            if (required_only or depth >= 4) and name not in required:
                continue
            out[name] = self.example(sub, depth + 1, required_only=required_only)
        return out

    def _string_example(self, node: Mapping[str, Any]) -> str:
        formats = {
            "date-time": "2026-11-20T15:04:05Z",
            "date": "2026-11-20",
            "time": "15:04:05",
            "email": "ada@example.com",
            "uri": "https://example.com/doc/1",
            "uri-reference": "/doc/1",
            "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
            "binary": "bytes",
            "byte": "Ynl0ZXM=",
        }
        fmt = next((b.get("format") for b in self.branches(node) if "format" in b), None)
        if fmt in formats:
            return formats[str(fmt)]
        pattern = next((b.get("pattern") for b in self.branches(node) if "pattern" in b), None)
        candidates = ["example", "+15125550123", "512", "ab12", "A1"]
        text = "example"
        if isinstance(pattern, str):
            text = next((c for c in candidates if re.search(pattern, c)), "example")
        low = int(node.get("minLength", 0))
        high = node.get("maxLength")
        text = text + "x" * max(0, low - len(text))
        return text[: int(high)] if high is not None else text

    @staticmethod
    def _number_example(node: Mapping[str, Any], kind: str) -> int | float:
        value: float = 1
        if "minimum" in node:
            value = max(value, float(node["minimum"]))
        if "exclusiveMinimum" in node:
            value = max(value, float(node["exclusiveMinimum"]) + 1)
        if "maximum" in node:
            value = min(value, float(node["maximum"]))
        return int(value) if kind == "integer" else float(value)


# -- routes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    method: str
    template: str
    spec: Mapping[str, Any]
    parameters: tuple[Mapping[str, Any], ...]
    segments: tuple[str, ...]

    @property
    def operation_id(self) -> str:
        return str(self.spec.get("operationId") or f"{self.method} {self.template}")

    def match(self, parts: list[str]) -> dict[str, str] | None:
        if len(parts) != len(self.segments):
            return None
        values: dict[str, str] = {}
        for segment, part in zip(self.segments, parts, strict=True):
            if segment.startswith("{") and segment.endswith("}"):
                if not part:
                    return None
                values[segment[1:-1]] = unquote(part)
            elif segment != part:
                return None
        return values

    def rank(self) -> tuple[int, ...]:
        """Literal segments before parameters, left to right."""
        return tuple(1 if s.startswith("{") else 0 for s in self.segments)


def routes_of(schemas: Schemas) -> list[Route]:
    found = []
    for template, raw_item in (schemas.document.get("paths") or {}).items():
        item = schemas.resolve(raw_item)
        shared = [schemas.resolve(p) for p in item.get("parameters", ())]
        for method in HTTP_METHODS:
            spec = item.get(method)
            if not isinstance(spec, Mapping):
                continue
            own = [schemas.resolve(p) for p in spec.get("parameters", ())]
            keys = {(p.get("name"), p.get("in")) for p in own}
            params = [p for p in shared if (p.get("name"), p.get("in")) not in keys] + own
            segments = tuple(template.strip("/").split("/")) if template.strip("/") else ()
            found.append(Route(method.upper(), template, spec, tuple(params), segments))
    return sorted(found, key=Route.rank)


# -- what was received -------------------------------------------------------------------------


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-case names; credential headers left out
    body: bytes
    credential: str | None  # the name of the known credential sent, "unknown", or None
    credential_header: str | None  # where it came: "authorization" or an apiKey header
    template: str | None = None
    operation_id: str | None = None
    status: int = 0
    violations: list[str] = field(default_factory=list)
    # Valid, but worth a test's attention (a secret the service gave, sent back).
    findings: list[str] = field(default_factory=list)

    # Body fields the schema does not list where it does not say it takes others: a
    # service drops them without a word (a typo that loses data).
    unknown_fields: list[str] = field(default_factory=list)
    form: dict[str, Any] = field(default_factory=dict)
    files: dict[str, tuple[str | None, bytes]] = field(default_factory=dict)

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


@dataclass
class Reply:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


# -- the server --------------------------------------------------------------------------------


class ContractMock:
    """Validates and answers requests for one contract; see the module docstring."""

    def __init__(
        self,
        document: Mapping[str, Any],
        *,
        credentials: Mapping[str, str] | None = None,
        scheme_kinds: Mapping[str, set[str]] | None = None,
    ) -> None:
        """``credentials`` names known credential values (``{"org": "sk_..."}``) so records
        and checks can say which was sent; ``scheme_kinds`` lists the names each security
        scheme admits (``{"Bearer": {"org", "user"}}``): another known one is a violation."""
        self.document = as_openapi_31(document)
        self.schemas = Schemas(self.document)
        self.routes = routes_of(self.schemas)
        self.credentials = dict(credentials or {})
        self.scheme_kinds = {k: set(v) for k, v in (scheme_kinds or {}).items()}
        self.requests: list[RecordedRequest] = []
        self._replies: dict[tuple[str, str], list[Reply]] = {}
        # (METHOD, template) -> (request flag, answer field) of ``issue_secret``.
        self._issuers: dict[tuple[str, str], tuple[str, str]] = {}
        self._secret_fields: set[str] = set()
        # Secrets the mock served, by value -> the field they came in.
        self.served_secrets: dict[str, str] = {}
        self.issued: list[str] = []
        self._versions: dict[str, int] = {}
        # Continuation tokens answered, with the query (the body less its token) they
        # continue: a next page must send the token byte for byte and the same query.
        self._issued_tokens: dict[tuple[str, str, str], Any] = {}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        # Where redirects of the contract's downloads point: another origin.
        self.files = FileServer()

    # -- test API ----------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the mock is not serving")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def violations(self) -> list[str]:
        with self._lock:
            return [f"{r}: {v}" for r in self.requests for v in r.violations]

    def findings(self) -> list[str]:
        with self._lock:
            return [f"{r}: {f}" for r in self.requests for f in r.findings]

    def issue_secret(self, method: str, template: str, *, flag: str, field: str) -> None:
        """A valid METHOD template request whose JSON body has ``flag`` true is answered
        with a new secret in ``field`` (also of an answer given with ``reply``); ``field`` in
        an answer given with ``reply`` is a secret the client must not send back either."""
        with self._lock:
            self._issuers[(method.upper(), template)] = (flag, field)
            self._secret_fields.add(field)

    def unknown_fields(self) -> list[str]:
        """``METHOD /path: field.path`` for every body field the service would drop."""
        with self._lock:
            return [f"{r}: {name}" for r in self.requests for name in r.unknown_fields]

    def requests_to(self, method: str, template: str) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.method == method and r.template == template]

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()

    def reply(
        self,
        method: str,
        template: str,
        *,
        status: int = 200,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Answer the next valid request to METHOD template with this instead of an example."""
        with self._lock:
            self._replies.setdefault((method.upper(), template), []).append(
                Reply(status, body, dict(headers or {}))
            )

    def etag(self, path: str) -> str:
        """The current ETag of the resource at ``path`` (a concrete path)."""
        with self._lock:
            version = self._versions.get(path, 1)
        digest = hashlib.sha256(path.encode()).hexdigest()[:8]
        return f'"{digest}-{version}"'

    def change(self, path: str) -> None:
        """Someone else changed the resource: its ETag moves on."""
        with self._lock:
            self._versions[path] = self._versions.get(path, 1) + 1

    def example_response(self, method: str, template: str) -> tuple[int, Any]:
        """The status and example body a valid request to METHOD template gets."""
        route = next(r for r in self.routes if r.method == method and r.template == template)
        return self._success(route)

    def response_schema(self, method: str, template: str) -> Any:
        route = next(r for r in self.routes if r.method == method and r.template == template)
        status = self._success_status(route)
        return self._json_schema(route.spec.get("responses", {}).get(str(status)))

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> ContractMock:
        mock = self

        class Handler(_Handler):
            pass

        Handler.mock = mock
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        ready = threading.Event()

        def serve() -> None:
            assert self._server is not None
            ready.set()
            self._server.serve_forever(poll_interval=0.05)

        self._thread = threading.Thread(target=serve, name="contract-mock", daemon=True)
        self._thread.start()
        if not ready.wait(START_TIMEOUT):
            raise RuntimeError("the contract mock did not start")
        if any(300 <= self._success_status(route) < 400 for route in self.routes):
            self.files.start()
        return self

    def stop(self) -> None:
        self.files.stop()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(START_TIMEOUT)
            self._thread = None

    # -- handling ----------------------------------------------------------------------------

    def handle(
        self, method: str, target: str, headers: Mapping[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        split = urlsplit(target)
        path = split.path
        lowered = {k.lower(): v for k, v in headers.items()}
        query = parse_qs(split.query, keep_blank_values=True)
        presented = self._presented(lowered, query)
        credential, credential_header = self._credential_of(lowered, presented)
        record = RecordedRequest(
            method=method,
            path=path,
            query={k: v for k, v in query.items() if k not in self._api_key_places("query")},
            headers={k: v for k, v in lowered.items() if not self._is_credential_header(k)},
            body=body,
            credential=credential,
            credential_header=credential_header,
        )
        status, reply_headers, payload = self._answer(record, lowered, presented)
        record.status = status
        with self._lock:
            self.requests.append(record)
        return status, reply_headers, payload

    def _answer(
        self, record: RecordedRequest, headers: Mapping[str, str], presented: Mapping[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        parts = record.path.strip("/").split("/") if record.path.strip("/") else []
        matched = [(r, r.match(parts)) for r in self.routes]
        on_path = [(r, values) for r, values in matched if values is not None]
        if not on_path:
            record.violations.append("no operation has this path")
            return self._problem(404, "no such path")
        found = next(((r, v) for r, v in on_path if r.method == record.method), None)
        if found is None:
            record.violations.append(f"no {record.method} operation on this path")
            return self._problem(405, "method not allowed")
        route, path_values = found
        record.template = route.template
        record.operation_id = route.operation_id
        self._find_secrets_sent_back(record)
        status = self._check(route, path_values, record, headers, presented)
        self._check_next_page(route, record)
        if record.violations:
            return self._problem(status or 400, "; ".join(record.violations))
        if_match = headers.get("if-match")
        changing = route.method in ("PUT", "PATCH", "DELETE")
        if changing and if_match is not None and if_match != self.etag(record.path):
            return self._problem(412, "the resource changed since it was read")
        with self._lock:
            queued = self._replies.get((route.method, route.template))
            override = queued.pop(0) if queued else None
        if override is not None:
            reply_status, reply_body = override.status, override.body
            reply_headers = dict(override.headers)
        else:
            reply_status, reply_body = self._success(route)
            reply_headers = {}
            if "ETag" in self._success_headers(route):
                reply_headers["ETag"] = self.etag(record.path)
            if 300 <= reply_status < 400 and "Location" in self._success_headers(route):
                reply_headers["Location"] = self.files.url(f"/{route.operation_id}")
        if route.method in ("PUT", "PATCH") and 200 <= reply_status < 300:
            self.change(record.path)
        if override is not None:
            # A test's own answer (a synthesized one holds placeholder text, not secrets).
            self._remember_served(reply_body)
        if 200 <= reply_status < 300:
            reply_body = self._with_issued_secret(route, record, reply_body)

        self._note_token(route, record, reply_body)
        if reply_body is None:
            return reply_status, reply_headers, b""
        reply_headers.setdefault("Content-Type", "application/json; charset=utf-8")
        return reply_status, reply_headers, json.dumps(reply_body).encode()

    # -- secrets served and sent back --------------------------------------------------------

    def _with_issued_secret(self, route: Route, record: RecordedRequest, body: Any) -> Any:
        with self._lock:
            issuer = self._issuers.get((route.method, route.template))
        if issuer is None or not isinstance(body, dict):
            return body
        flag, field_name = issuer
        try:
            sent = record.json()
        except ValueError:
            return body
        if not (isinstance(sent, dict) and sent.get(flag) is True):
            return body
        with self._lock:
            issued = f"srckey_issued_{len(self.issued) + 1}_{secrets.token_hex(12)}"
            self.issued.append(issued)
            self.served_secrets[issued] = field_name
        return {**body, field_name: issued}

    def _remember_served(self, body: Any) -> None:
        if isinstance(body, dict):
            for key, value in body.items():
                if key in self._secret_fields and isinstance(value, str) and value:
                    with self._lock:
                        self.served_secrets[value] = key
                else:
                    self._remember_served(value)
        elif isinstance(body, list):
            for item in body:
                self._remember_served(item)

    def _find_secrets_sent_back(self, record: RecordedRequest) -> None:
        """A served secret in the body, path or query (not in a credential header, where
        a new key is meant to go)."""
        text = record.body.decode("utf-8", "replace") + record.path + json.dumps(record.query)
        with self._lock:
            served = dict(self.served_secrets)
        for value, field_name in served.items():
            if value in text:
                record.findings.append(f"sent back the secret the service gave in {field_name}")

    # -- paging ------------------------------------------------------------------------------

    def _note_token(self, route: Route, record: RecordedRequest, reply_body: Any) -> None:
        token = reply_body.get("continuationToken") if isinstance(reply_body, dict) else None
        query = _query_of(record)
        if isinstance(token, str) and token and query is not None:
            with self._lock:
                self._issued_tokens[(route.method, route.template, token)] = query

    def _check_next_page(self, route: Route, record: RecordedRequest) -> None:
        """A request carrying a continuation token: the token must be one this mock answered
        (byte for byte) and the rest of the body the query that page continued."""
        body = _json_or_none(record)
        token = body.get("continuationToken") if isinstance(body, dict) else None
        if not isinstance(token, str):
            return
        with self._lock:
            first = self._issued_tokens.get((route.method, route.template, token), _UNPARSED)
        if first is _UNPARSED:
            record.violations.append(
                f"continuationToken {token!r} was never answered by this operation"
            )
        elif _query_of(record) != first:
            record.violations.append(
                f"the next page's body {_query_of(record)!r} is not the query it continues "
                f"{first!r} (only continuationToken may change)"
            )

    # -- checks ------------------------------------------------------------------------------

    def _check(
        self,
        route: Route,
        path_values: Mapping[str, str],
        record: RecordedRequest,
        headers: Mapping[str, str],
        presented: Mapping[str, str],
    ) -> int | None:
        """Record every violation; return the status the first kind of problem earns."""
        status = self._check_security(route, record, presented)
        for param in route.parameters:
            name, where = str(param.get("name")), param.get("in")
            schema = param.get("schema") or {}
            if where == "path":
                self._check_value(record, f"path parameter {name}", schema, [path_values[name]])
            elif where == "query":
                values = record.query.get(name)
                if values is None:
                    if param.get("required"):
                        record.violations.append(f"missing required query parameter {name!r}")
                    continue
                self._check_value(record, f"query parameter {name}", schema, values)
            elif where == "header":
                value = headers.get(name.lower())
                if value is None:
                    if param.get("required"):
                        record.violations.append(f"missing required header {name!r}")
                    continue
                self._check_value(record, f"header {name}", schema, [value])
        declared = {str(p.get("name")) for p in route.parameters if p.get("in") == "query"}
        for name in record.query:
            if name not in declared:
                record.violations.append(f"unknown query parameter {name!r}")
        media_status = self._check_body(route, record, headers)
        return status or media_status

    def _check_security(
        self, route: Route, record: RecordedRequest, presented: Mapping[str, str]
    ) -> int | None:
        requirements = route.spec.get("security", self.document.get("security", []))
        if {} in requirements and not presented:
            return None  # optional: nothing is a valid answer too
        if not requirements:
            if presented:
                record.violations.append(
                    f"credential sent ({', '.join(sorted(presented))}) to an anonymous operation"
                )
            return None
        admitted = {name for requirement in requirements for name in requirement}
        for scheme in presented:
            if scheme not in admitted:
                takes = " or ".join(sorted(admitted))
                record.violations.append(
                    f"credential sent as {scheme}, the operation takes {takes}"
                )
        satisfied = [req for req in requirements if req and all(name in presented for name in req)]
        if not satisfied:
            record.violations.append(f"no credential for {' or '.join(sorted(admitted))}")
            return 401
        for scheme, value in presented.items():
            kinds = self.scheme_kinds.get(scheme)
            known = self._known_name(value)
            if kinds is not None and known is not None and known not in kinds:
                record.violations.append(f"a {known} credential sent as {scheme}")
                return 401
        return None

    def _check_value(self, record: RecordedRequest, what: str, schema: Any, raw: list[str]) -> None:
        kind = self.schemas.type_of(schema)
        if kind == "array":
            item_schema = next(
                (b["items"] for b in self.schemas.branches(schema) if "items" in b), {}
            )
            items = [v for value in raw for v in value.split(",")] if len(raw) == 1 else raw
            value: Any = [self._typed(item_schema, v) for v in items]
        else:
            if len(raw) > 1:
                record.violations.append(f"{what} given {len(raw)} times")
            value = self._typed(schema, raw[0])
        for error in self.schemas.errors(schema, value):
            record.violations.append(f"{what}: {error}")

    def _typed(self, schema: Any, text: str) -> Any:
        """A string from a URL, header or form field as the value the schema types it."""
        kind = self.schemas.type_of(schema)
        try:
            if kind == "integer":
                return int(text)
            if kind == "number":
                return float(text)
        except ValueError:
            return text
        if kind == "boolean":
            return {"true": True, "false": False}.get(text.lower(), text)
        return text

    def _check_body(
        self, route: Route, record: RecordedRequest, headers: Mapping[str, str]
    ) -> int | None:
        request_body = self.schemas.resolve(route.spec.get("requestBody"))
        content_type = headers.get("content-type", "")
        if not isinstance(request_body, Mapping):
            if record.body:
                record.violations.append("a body sent to an operation that takes none")
            return None
        base = content_type.split(";")[0].strip().lower()
        # An empty urlencoded body is a form with no fields (what a browser sends for a form
        # of empty inputs), a body all the same; empty JSON or multipart is no body at all.
        empty_form = base == "application/x-www-form-urlencoded" and "content-length" in headers
        if not record.body and not empty_form:
            if request_body.get("required"):
                record.violations.append("missing required request body")
            return None
        content = request_body.get("content") or {}
        if "*" in base:
            record.violations.append(f"content type {base!r} is a pattern, not a media type")
            return 415
        media = next((m for m in content if _media_matches(str(m), base)), None)
        if media is None:
            record.violations.append(
                f"content type {base or '(none)'!r} is not one of {', '.join(content)}"
            )
            return 415
        schema = (content[media] or {}).get("schema") or {}
        value = self._parse_body(record, base, content_type, schema)
        if value is _UNPARSED:
            return None
        for error in self.schemas.errors(schema, value):
            record.violations.append(f"body {error}")
        for where in self.schemas.read_only_sent(schema, value):
            record.violations.append(f"body {where}: a read-only property was sent")

        record.unknown_fields += self.schemas.unlisted(schema, value)
        return None

    def _parse_body(
        self, record: RecordedRequest, base: str, content_type: str, schema: Any
    ) -> Any:
        if base in ("application/json", "text/json") or base.endswith("+json"):
            try:
                return json.loads(record.body)
            except ValueError as error:
                record.violations.append(f"body is not JSON: {error}")
                return _UNPARSED
        if base == "application/x-www-form-urlencoded":
            fields = parse_qs(record.body.decode("utf-8", "replace"), keep_blank_values=True)
            record.form = {k: v[0] if len(v) == 1 else v for k, v in fields.items()}
            return self._typed_form(schema, fields)
        if base == "multipart/form-data":
            fields = {}
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                f"Content-Type: {content_type}\r\n\r\n".encode() + record.body
            )
            if not message.is_multipart():
                record.violations.append("multipart body without parts")
                return _UNPARSED
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if not isinstance(name, str):
                    record.violations.append("a multipart part without a name")
                    continue
                payload = part.get_payload(decode=True) or b""
                filename = part.get_filename()
                if filename is not None or part.get_content_type() != "text/plain":
                    record.files[name] = (filename, payload)
                fields.setdefault(name, []).append(payload.decode("utf-8", "replace"))
            record.form = {k: v[0] if len(v) == 1 else v for k, v in fields.items()}
            return self._typed_form(schema, fields)
        return _UNPARSED

    def _typed_form(self, schema: Any, fields: Mapping[str, list[str]]) -> dict[str, Any]:
        properties = self.schemas.properties(schema)
        out: dict[str, Any] = {}
        for name, values in fields.items():
            sub = properties.get(name, {})
            if self.schemas.type_of(sub) == "array":
                items = next((b["items"] for b in self.schemas.branches(sub) if "items" in b), {})
                out[name] = [self._typed(items, v) for v in values]
            else:
                out[name] = self._typed(sub, values[0]) if len(values) == 1 else values
        return out

    # -- answers -----------------------------------------------------------------------------

    def _success_status(self, route: Route) -> int:
        """The first 2xx the operation lists, else its first 3xx (a download's redirect)."""
        codes = sorted(str(c) for c in route.spec.get("responses", {}) if str(c)[:1] in "23")
        return int(codes[0]) if codes else 200

    def _success_headers(self, route: Route) -> Mapping[str, Any]:
        response = self.schemas.resolve(
            route.spec.get("responses", {}).get(str(self._success_status(route)))
        )
        return response.get("headers") or {} if isinstance(response, Mapping) else {}

    def _json_schema(self, response: Any) -> Any:
        response = self.schemas.resolve(response)
        if not isinstance(response, Mapping):
            return None
        content = response.get("content") or {}
        for media in ("application/json", *content):
            base = str(media).split(";")[0].strip().lower()
            if media in content and (base.endswith("json")):
                return (content[media] or {}).get("schema", {})
        return None

    def _success(self, route: Route) -> tuple[int, Any]:
        status = self._success_status(route)
        schema = self._json_schema(route.spec.get("responses", {}).get(str(status)))
        if schema is None:
            return status, None
        return status, self.schemas.example(schema)

    @staticmethod
    def _problem(status: int, detail: str) -> tuple[int, dict[str, str], bytes]:
        body = {
            "type": "https://tools.ietf.org/html/rfc9110",
            "title": HTTPStatus(status).phrase,
            "status": status,
            "detail": detail,
            "traceId": "00-mock-00",
        }
        return status, {"Content-Type": "application/problem+json"}, json.dumps(body).encode()

    # -- credentials -------------------------------------------------------------------------

    def _api_key_places(self, where: str) -> dict[str, str]:
        """Parameter name (lower-case for headers) -> scheme, of the apiKey schemes in
        ``where`` (header, query or cookie)."""
        schemes = self.document.get("components", {}).get("securitySchemes", {})
        return {
            str(s["name"]).lower() if where == "header" else str(s["name"]): name
            for name, s in schemes.items()
            if s.get("type") == "apiKey" and s.get("in") == where
        }

    def _api_key_headers(self) -> dict[str, str]:
        return self._api_key_places("header")

    def _is_credential_header(self, name: str) -> bool:
        return (
            name in CREDENTIAL_HEADERS
            or name in self._api_key_headers()
            or (name == "cookie" and bool(self._api_key_places("cookie")))
        )

    def _presented(
        self, headers: Mapping[str, str], query: Mapping[str, list[str]]
    ) -> dict[str, str]:
        """Scheme name -> the credential sent for it: Authorization Bearer or Basic (the
        ``user:password`` pair), or an apiKey's header, query parameter or cookie."""
        schemes = self.document.get("components", {}).get("securitySchemes", {})
        cookies = _cookies(headers.get("cookie", ""))
        auth = headers.get("authorization", "")
        found: dict[str, str] = {}
        for name, scheme in schemes.items():
            kind = scheme.get("type")
            wanted = str(scheme.get("scheme", "bearer")).lower() if kind == "http" else "bearer"
            if kind in ("http", "oauth2", "openIdConnect"):
                given, _, value = auth.partition(" ")
                if given.lower() != wanted or not value.strip():
                    continue
                # A Basic credential is the Base64 of user:password, nothing else.
                presented = _basic_pair(value.strip()) if wanted == "basic" else value.strip()
                if presented is not None:
                    found[name] = presented
            elif kind == "apiKey":
                where, key = scheme.get("in"), str(scheme.get("name"))
                value = {
                    "header": headers.get(key.lower()),
                    "query": (query.get(key) or [None])[0],
                    "cookie": cookies.get(key),
                }.get(str(where))
                if value:
                    found[name] = value
        return found

    def _known_name(self, value: str) -> str | None:
        """The name of a known credential: as sent, or the user of a Basic pair with an
        empty password (an API key as the user name)."""
        user, colon, password = value.partition(":")
        candidates = [value, user] if colon and not password else [value]
        return next((name for name, known in self.credentials.items() if known in candidates), None)

    def _credential_of(
        self, headers: Mapping[str, str], presented: Mapping[str, str]
    ) -> tuple[str | None, str | None]:
        auth = headers.get("authorization")
        if auth:
            value = next(iter(presented.values()), auth.split(" ", 1)[-1].strip())
            return self._known_name(value) or "unknown", "authorization"
        for header in self._api_key_headers():
            if headers.get(header):
                return self._known_name(headers[header]) or "unknown", header
        for value in presented.values():
            return self._known_name(value) or "unknown", "query or cookie"
        return None, None


def _cookies(header: str) -> dict[str, str]:
    pairs = (part.strip().partition("=") for part in header.split(";") if part.strip())
    return {name: value for name, _, value in pairs}


def _basic_pair(encoded: str) -> str | None:
    """The ``user:password`` of a Basic credential; None when it is not one."""
    try:
        pair = base64.b64decode(encoded, validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return pair if ":" in pair else None


_UNPARSED = object()


def _json_or_none(record: RecordedRequest) -> Any:
    try:
        return record.json()
    except ValueError:
        return None


def _query_of(record: RecordedRequest) -> Any:
    """A JSON object body without its continuation token: the query a page answers."""
    body = _json_or_none(record)
    if not isinstance(body, dict):
        return None
    return {key: value for key, value in body.items() if key != "continuationToken"}


def _media_matches(declared: str, sent: str) -> bool:
    """``application/*+json`` stands for any ``application/<x>+json``; others match exactly."""
    declared = declared.split(";")[0].strip().lower()
    if declared == sent:
        return True
    if "*" in declared:
        pattern = re.escape(declared).replace(r"\*", r"[^/*;]+")
        return re.fullmatch(pattern, sent) is not None
    return False


class _Handler(BaseHTTPRequestHandler):
    mock: ContractMock
    protocol_version = "HTTP/1.1"

    def _serve(self) -> None:
        body = self._read_body()
        status, headers, payload = self.mock.handle(
            self.command, self.path, dict(self.headers.items()), body
        )
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    do_GET = do_PUT = do_POST = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _serve

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the record is the log


class FileServer:
    """A second loopback server (another origin) that serves bytes at any path and records
    each request's headers, for redirects to a storage host."""

    def __init__(self) -> None:
        self.content = b"PK\x03\x04fixture export\x00\xff\x10 bytes of an archive"
        self.content_type = "application/zip"
        # Hang up this many bytes before the end (a download that breaks off).
        self.short_by = 0
        self.requests: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def url(self, path: str) -> str:
        if self._server is None:
            raise RuntimeError("the file server is not serving")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{path}?signature=fixture-signature"

    def start(self) -> None:
        files = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                with files._lock:
                    files.requests.append({k.lower(): v for k, v in self.headers.items()})
                    content, media, short = files.content, files.content_type, files.short_by
                self.send_response(200)
                self.send_header("Content-Type", media)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content[: len(content) - short])
                self.close_connection = bool(short)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # serve_forever checks for shutdown every poll_interval (0.5 s by default): every
        # test's stop() waited that long.
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


@contextlib.contextmanager
def serve_contract(
    document: Mapping[str, Any],
    *,
    credentials: Mapping[str, str] | None = None,
    scheme_kinds: Mapping[str, set[str]] | None = None,
) -> Iterator[ContractMock]:
    """A started mock for ``document``, stopped on exit."""
    mock = ContractMock(document, credentials=credentials, scheme_kinds=scheme_kinds).start()
    try:
        yield mock
    finally:
        mock.stop()
