"""The compiled index's values as the JSON the store keeps (``leadctl.contract.entries``
and ``leadctl.contract.listing`` decode it back): a key is written only where it says
something, so an entry stays small."""

from __future__ import annotations

from typing import Any

from leadctl.contract.entries import Body, BodyField, Idempotency, Parameter, Pending, Response
from leadctl.contract.index.model import Clash, Entry
from leadctl.contract.listing import GroupInfo

JsonObject = dict[str, Any]


def entry_json(entry: Entry) -> JsonObject:
    """A generated operation's entry; a curated one's lists what `contract show` and
    `--wait` read and what the curated command calls (the command has the rest: its own
    options and help)."""
    what = entry.what
    head = {
        "id": what.id,
        "operationId": what.operation_id,
        "group": entry.group,
        "verb": entry.named.verb,
        "curated": entry.curated,
    }
    request = {
        "retrySafe": what.retry_safe,
        "retryReason": what.retry_reason,
        "kinds": list(what.kinds),
        "auth": what.auth,
        "idempotency": idempotency_json(what.idempotency),
        "params": [param_json(p) for p in what.params],
    }
    if entry.curated is not None:
        return {
            **head,
            "method": what.method,
            "path": what.path,
            "summary": what.summary,
            **request,
            "body": body_json(what.body, fields=False),
            "response": response_json(what.response),
            "pending": pending_json(entry.pending),
            "destructive": what.destructive,
        }
    return {
        **head,
        "aliases": list(entry.named.aliases),
        "method": what.method,
        "path": what.path,
        "summary": what.summary,
        "description": what.description,
        "deprecated": what.deprecated,
        "assumed": what.assumed,
        **request,
        "body": body_json(what.body),
        "response": response_json(what.response),
        "pending": pending_json(entry.pending),
        "download": what.download,
        "destructive": what.destructive,
        "hiddenAliases": list(entry.named.hidden_aliases),
    }


def idempotency_json(found: Idempotency | None) -> JsonObject | None:
    return None if found is None else {"in": found.where, "name": found.name}


def param_json(param: Parameter) -> JsonObject:
    found: JsonObject = {
        "name": param.name,
        "in": param.where,
        "required": param.required,
        "type": param.type,
        "description": param.description,
    }
    # Each written only where it says something (a default may be false or 0).
    optional = (
        ("items", param.items),
        ("enum", list(param.enum) or None),
        ("default", param.default),
        ("format", param.format),
        ("untyped", param.untyped or None),
        ("phone", param.phone or None),
        ("metavar", param.metavar),
        ("flag", param.flag),
        ("checked", param.checked or None),
    )
    found.update((key, value) for key, value in optional if value is not None)
    return found


def body_json(body: Body | None, *, fields: bool = True) -> JsonObject | None:
    if body is None:
        return None
    if not body.json and body.form is None:  # a media type leadctl does not build
        return {"required": body.required, "media": body.media, "json": False}
    found: JsonObject = {
        "required": body.required,
        "media": body.media,
        "json": body.json,
        "paged": body.paged,
        "collectionQuery": body.collection_query,
        "schemaRef": body.schema_ref,
        "description": body.description,
    }
    if fields:
        found["fields"] = [field_json(f) for f in body.fields]
    if body.phones:
        found["phones"] = list(body.phones)
    if body.form is not None:
        found["form"] = body.form
        found["files"] = list(body.files)
        found["emptyAllowed"] = body.empty_allowed
    return found


def field_json(field: BodyField) -> JsonObject:
    found: JsonObject = {"name": field.name, "type": field.type, "required": field.required}
    if field.enum:
        found["enum"] = list(field.enum)
    if field.description is not None:
        found["description"] = field.description
    if field.phone:
        found["phone"] = True
    if field.fields:
        found["fields"] = [field_json(f) for f in field.fields]
    return found


def response_json(response: Response) -> JsonObject:
    found: JsonObject = {"kind": response.kind, "columns": [list(c) for c in response.columns]}
    if response.paged:
        found["paged"] = True
    return found


def pending_json(rule: Pending | None) -> JsonObject | None:
    if rule is None:
        return None
    found: JsonObject = {
        "field": rule.field,
        "pending": list(rule.pending),
        "failed": list(rule.failed),
        "poll": rule.poll,
        "idField": rule.id_field,
        "reasonField": rule.reason_field,
    }
    if rule.download is not None:  # only when named: other contracts' entries stay as they were
        found["download"] = rule.download
    return found


def group_json(group: GroupInfo) -> JsonObject:
    return {"tag": group.tag, "help": group.help, "aliases": list(group.aliases)}


def clash_json(clash: Clash) -> JsonObject:
    return {
        "group": clash.group,
        "verb": clash.verb,
        "operations": list(clash.operations),
        "resolved": list(clash.resolved),
        "explicit": clash.explicit,
    }
