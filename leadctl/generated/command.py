"""One generated verb as a Typer command, built from its index entry.

Path parameters become arguments, query and header parameters options (enums become
choices, arrays repeatable options), a JSON body ``--field``/``--data``, a
RequestDataOptions body leadctl's paging and query options, and an operation whose
answer carries a pending status ``--wait``/``--wait-timeout``.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.generated.confirm import YES_HELP
from leadctl.generated.prose import contract_prose, contract_words
from leadctl.http.listing import (
    AllOption,
    CountOption,
    CursorOption,
    LimitOption,
    PageSizeOption,
)

if TYPE_CHECKING:
    from leadctl.generated.tree import GeneratedTree

DEFAULT_WAIT_TIMEOUT = 60.0
# Inline --data JSON up to this long; a longer body is shown as @body.json.
INLINE_DATA_WIDTH = 72
_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}

FieldsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--field",
        metavar="KEY=VALUE",
        help="A body field (repeatable): typed like `api -F` (true/false/null, numbers, JSON, "
        "@FILE) unless the contract says the field is a string; a.b and a[]=x nest.",
    ),
]
FormFieldsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--field",
        metavar="NAME=VALUE",
        help="A form field (repeatable; repeated names send several values), sent as text; "
        "a file field takes @PATH (as --file does), another field's @PATH is that file's text.",
    ),
]
FilesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--file",
        metavar="NAME=@PATH",
        help="A file part of the multipart body (repeatable); a file that cannot be read "
        "is exit 2 before anything is sent.",
    ),
]
DataOption = Annotated[
    str | None,
    typer.Option(
        "--data",
        metavar="JSON|@FILE|-",
        help="The body as a JSON object; --field values are merged over it.",
    ),
]
SearchOption = Annotated[
    str | None, typer.Option("--search", metavar="TEXT", help="Full-text search (search).")
]
FilterOption = Annotated[
    list[str] | None,
    typer.Option(
        "--filter",
        metavar="FIELD=VALUE",
        help="Keep items whose FIELD equals VALUE (repeatable; filters).",
    ),
]
RangeOption = Annotated[
    list[str] | None,
    typer.Option(
        "--range",
        metavar="'FIELD>=VALUE'",
        help="Keep items with FIELD in a range (repeatable; > >= < <=; rangeFilters).",
    ),
]
OrderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--order-by", metavar="FIELD", help="Sort by FIELD (repeatable; '-FIELD' descending)."
    ),
]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help=YES_HELP)]
OutputFileOption = Annotated[
    str | None,
    typer.Option(
        "--output-file",
        metavar="PATH",
        help="Write the answer's bytes to PATH (complete or not at all). Without it they go "
        "to stdout when that is not a terminal; binary is never written to a terminal.",
    ),
]
WaitOption = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="Poll until the status leaves its pending values (spinner on a terminal); "
        "exit 6 when it ends failed, 8 when --wait-timeout passes first.",
    ),
]
WaitTimeoutOption = Annotated[
    float,
    typer.Option(
        "--wait-timeout",
        metavar="SECONDS",
        min=0.1,
        help="How long --wait waits in all (each request still has --timeout).",
    ),
]

PAGED_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("page_size", PageSizeOption, None),
    ("limit", LimitOption, None),
    ("all_pages", AllOption, False),
    ("cursor", CursorOption, None),
    ("count", CountOption, False),
    ("search", SearchOption, None),
    ("filters", FilterOption, None),
    ("ranges", RangeOption, None),
    ("order_by", OrderOption, None),
)


# Types built at run time: typed as Any, since here they are values, not annotations.
_ANNOTATED: Any = Annotated
_LIST: Any = list


def _choice(values: Sequence[str]) -> Any:
    """An enum whose values are the choices (Typer takes enums as items of lists too)."""
    return Enum("Choice", [(f"v{index}", value) for index, value in enumerate(values)])


def param_annotation(spec: Mapping[str, Any]) -> Any:
    """The Python type Typer turns into the parameter's click type."""
    if spec["type"] == "array":
        item = _choice(spec["enum"]) if "enum" in spec else _SCALARS[spec.get("items", "string")]
        return _LIST[item]
    if "enum" in spec:
        return _choice(spec["enum"])
    return _SCALARS.get(spec["type"], str)


def param_help(spec: Mapping[str, Any]) -> str:
    text = contract_prose(spec.get("description") or "")
    if spec["in"] == "header":
        text = f"{text} (header {contract_words(spec['name'])})".strip()
    elif spec["in"] == "query" and spec.get("flag") != f"--{spec['name']}":
        text = f"{text} (query {contract_words(spec['name'])})".strip()
    return text


def _parameters(op: Mapping[str, Any]) -> tuple[list[inspect.Parameter], list[tuple[str, Any]]]:
    """The callback's parameters and, per parameter name, the spec it carries."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    out: list[inspect.Parameter] = []
    bindings: list[tuple[str, Any]] = []
    path = [p for p in op["params"] if p["in"] == "path"]
    others = [p for p in op["params"] if p["in"] != "path"]
    for index, spec in enumerate(path):
        name = f"path_{index}"
        info = typer.Argument(
            metavar=spec["metavar"], help=contract_prose(spec.get("description") or "") or None
        )
        annotation = _ANNOTATED[param_annotation(spec), info]
        out.append(
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation)
        )
        bindings.append((name, spec))
    for index, spec in enumerate(others):
        name = f"param_{index}"
        python_type = param_annotation(spec)
        flag = spec["flag"]
        decls = [f"{flag}/--no-{flag[2:]}"] if spec["type"] == "boolean" else [flag]
        # A time takes ISO 8601 or a relative form (-7d, today): not just any "str".
        metavar = "TIME" if spec.get("format") == "date-time" else None
        info = typer.Option(
            *decls, help=param_help(spec) or None, show_default=False, metavar=metavar
        )
        if spec.get("required"):
            annotation = _ANNOTATED[python_type, info]
            out.append(inspect.Parameter(name, keyword, annotation=annotation))
        else:
            annotation = _ANNOTATED[python_type | None, info]
            out.append(inspect.Parameter(name, keyword, annotation=annotation, default=None))
        bindings.append((name, spec))
    body = op.get("body")
    if body and body.get("form"):
        out.append(inspect.Parameter("fields", keyword, annotation=FormFieldsOption, default=None))
        out.append(inspect.Parameter("data", keyword, annotation=DataOption, default=None))
        if body.get("form") == "multipart":
            out.append(inspect.Parameter("files", keyword, annotation=FilesOption, default=None))
    elif body:
        out.append(inspect.Parameter("fields", keyword, annotation=FieldsOption, default=None))
        out.append(inspect.Parameter("data", keyword, annotation=DataOption, default=None))
        if body.get("paged"):
            for name, annotation, default in PAGED_OPTIONS:
                out.append(inspect.Parameter(name, keyword, annotation=annotation, default=default))
    if op.get("destructive"):
        out.append(inspect.Parameter("yes", keyword, annotation=YesOption, default=False))
    if op.get("download"):
        out.append(
            inspect.Parameter("output_file", keyword, annotation=OutputFileOption, default=None)
        )
    pending = op.get("pending")
    if pending and pending.get("poll"):
        out.append(inspect.Parameter("wait", keyword, annotation=WaitOption, default=False))
        out.append(
            inspect.Parameter(
                "wait_timeout", keyword, annotation=WaitTimeoutOption, default=DEFAULT_WAIT_TIMEOUT
            )
        )
    return out, bindings


def build_verb(op: Mapping[str, Any], tree: GeneratedTree, *, name: str | None = None) -> Any:
    """The click command of ``op`` (Typer's public API, from a synthesized signature),
    named ``name`` (default: its verb)."""
    parameters, bindings = _parameters(op)

    def callback(typer_ctx: typer.Context, **values: Any) -> None:
        from leadctl.generated.run import run_operation

        run_operation(typer_ctx, op, tree, values, bindings)

    context = inspect.Parameter(
        "typer_ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context
    )
    signature = inspect.Signature([context, *parameters], return_annotation=None)
    callback.__signature__ = signature  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    callback.__annotations__["return"] = None
    app = typer.Typer(add_completion=False, rich_markup_mode=None)
    app.command(
        name or op["verb"],
        help=help_text(op),
        short_help=short_help(op),
        epilog=epilog(op),
        deprecated=bool(op.get("deprecated")),
    )(callback)
    return typer.main.get_command(app)


# -- help ---------------------------------------------------------------------------------


def short_help(op: Mapping[str, Any]) -> str:
    summary = " ".join(contract_prose(str(op.get("summary") or "")).split())
    if summary:
        return summary.rstrip(".") + "."
    description = " ".join(contract_prose(str(op.get("description") or "")).split())
    if description:
        first = description.split(". ", 1)[0]
        return first.rstrip(".") + "."
    return f"{op['method']} {contract_words(op['path'])}."


def help_text(op: Mapping[str, Any]) -> str:
    parts = [short_help(op)]
    description = contract_prose(str(op.get("description") or "").strip())
    if description and " ".join(description.split()).rstrip(".") != parts[0].rstrip("."):
        parts.append(description)
    parts.append(credential_sentence(op))
    if op.get("download"):
        parts.append(
            "The answer is a file: leadctl follows the service's redirect to it (the "
            "credential goes only to the service's own address) and writes its bytes to "
            "--output-file PATH, or to stdout when that is not a terminal."
        )
    if op.get("destructive"):
        parts.append(
            "It deletes, removes or cancels something: on a terminal it asks first; in "
            "scripts pass --yes (without a terminal and --yes it is exit 2 and nothing is "
            "sent)."
        )
    parts.append(
        f"{op['method']} {contract_words(op['path'])} (operationId {contract_words(op['id'])}), "
        f"generated from the service's contract. {retry_sentence(op)}"
    )
    if op.get("assumed"):
        parts.append(
            "leadctl assumes the service has this operation (the service's documentation "
            "does not show it): if it answers 404, `leadctl contract pull` fetches what "
            "the service really has."
        )
    times = [p for p in op["params"] if p.get("format") in ("date-time", "date")]
    if times or _has_times((op.get("body") or {}).get("fields", ())):
        parts.append(
            "Times (date-time parameters and fields) take ISO 8601 (an offset-less time is in "
            "the profile's timezone) or relative forms such as -7d, today, yesterday 09:00."
        )
    if any(p.get("phone") for p in op["params"]):
        parts.append(
            "A phone number argument may be national (the profile's region) or +E.164; it is "
            "sent in E.164."
        )
    body = op.get("body")
    if body and body.get("form"):
        media = contract_words(body.get("media"))
        lines = ["\b", f"Form fields ({media}; --field NAME=VALUE, --file NAME=@PATH):"]
        for field in body.get("fields", ()):
            shown = dict(field)
            if field["name"] in body.get("files", ()):
                shown["type"] = "file"
            lines += _field_lines(shown)
        parts.append("\n".join(lines))
    elif body and not body.get("json"):
        parts.append(
            f"The body is {contract_words(body.get('media'))}: leadctl sends JSON, "
            "multipart/form-data and "
            "form-urlencoded bodies only."
        )
    elif body and body.get("paged"):
        parts.append(
            "The body is a collection query, built from --search, --filter, --range and "
            "--order-by (the syntax of `leads list`) and paged with --page-size, --limit, "
            "--all and --cursor; --data and --field add anything else it takes."
        )
    elif body and body.get("fields"):
        lines = ["\b", "Body fields (JSON; --field KEY=VALUE, a.b for a nested field, or --data):"]
        for field in body["fields"]:
            lines += _field_lines(field)
        parts.append("\n".join(lines))
    pending = op.get("pending")
    if pending and pending.get("poll"):
        parts.append(
            contract_words(
                f"--wait polls {pending['poll']} until {pending['field']} is no longer "
                f"{' or '.join(pending['pending'])}; "
                f"{' or '.join(pending['failed']) or 'no value'} ends in exit 6."
            )
        )
    return "\n\n".join(parts)


def _has_times(fields: Any) -> bool:
    return any(
        f.get("type") in ("date-time", "date") or _has_times(f.get("fields", ())) for f in fields
    )


def retry_sentence(op: Mapping[str, Any]) -> str:
    """What --help says of retries (cli.md "Retries"), from the compiled index."""
    reason = str(op.get("retryReason") or "")
    idem = op.get("idempotency")
    if op.get("retrySafe"):
        text = f"Retry-safe ({reason}): retried on 429, 5xx and network failures."
        if idem:
            where = "header" if idem["in"] == "header" else "body field"
            text += (
                f" A fresh idempotency key goes in the {where} {contract_words(idem['name'])} "
                "(the same on "
                "every retry; --dry-run shows it) unless you give one."
            )
    else:
        why = f" ({reason})" if reason and reason != "not retry-safe" else ""
        text = (
            f"Not retry-safe{why}: retried only on 429; a failure after sending is exit 9, "
            "since the service may have acted."
        )
    return (
        text + " The profile keys retry_safe_operations and retry_unsafe_operations override this."
    )


CREDENTIAL_NAMES = {"org": "an organization key", "user": "a user token", "source": "a source key"}


def credential_sentence(op: Mapping[str, Any]) -> str:
    """Which credential the operation needs and where it goes, from the contract's security
    (cli.md "Credentials")."""
    kinds = list(op.get("kinds") or ())
    if not kinds:
        return "Credential: none (security: []); no credential is sent."
    shown = [CREDENTIAL_NAMES.get(str(k), str(k)) for k in kinds]
    listed = ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0]
    places = [
        _place_text(place)
        for requirement in op.get("auth") or ()
        for place in requirement.get("places", ())
    ]
    if places and places != [_place_text(BEARER_PLACE)]:
        listed += ", sent " + " or ".join(dict.fromkeys(places))
    return f"Credential: {listed}."


BEARER_PLACE = {"in": "header", "name": "Authorization", "scheme": "bearer"}


def _place_text(place: Mapping[str, Any]) -> str:
    """How a credential is sent, after "sent"."""
    if place["scheme"] == "bearer":
        return "as Authorization: Bearer"
    if place["scheme"] == "basic":
        return "with HTTP Basic (the stored user:password, or a key as the user name)"
    if place["in"] == "header" and place["scheme"] != "key":
        return f"as Authorization: {str(place['scheme']).capitalize()}"
    where = "query parameter" if place["in"] == "query" else place["in"]
    return f"in the {contract_words(place['name'])} {where}"


def _field_lines(field: Mapping[str, Any], prefix: str = "", depth: int = 1) -> list[str]:
    """A field as one line (the help formatter wraps it to the terminal), then the fields
    of a required object under it as dot paths (``contact.firstName``)."""
    kind = str(field["type"])
    if field.get("enum"):
        kind = f"{kind}: one of " + ", ".join(str(v) for v in field["enum"])
    note = ", required" if field.get("required") else ""
    path = f"{prefix}{field['name']}"
    text = contract_words(f"{path} ({kind}{note})")
    if field.get("description"):
        text += ": " + " ".join(contract_prose(str(field["description"])).split())
    elif kind == "array of object" and not prefix:
        # --field cannot address an item's fields (steps[].id): the list goes as JSON.
        text += f": a JSON list, --field '{contract_words(path)}=[{{...}}]'"
    lines = ["  " * depth + text]
    inner = "[]." if str(field["type"]).startswith("array") else "."
    for sub in field.get("fields", ()):
        lines += _field_lines(sub, f"{path}{inner}", depth + 1)
    return lines


def epilog(op: Mapping[str, Any]) -> str:
    """Two examples (three with --wait), filled with the operation's required path and
    query parameters and body fields."""
    from leadctl.generated.samples import body_json, field_args, param_args

    command = f"leadctl {op['group']} {op['verb']}"
    args = param_args(op["params"], str(op["path"]))
    examples = []
    body = op.get("body") or {}
    if body.get("paged"):
        examples.append(f"{command}{args} --all -o ndjson | jq -c .")
        examples.append(f"{command}{args} --limit 50 -o csv > items.csv")
    elif body.get("json"):
        idem = op.get("idempotency") or {}
        # leadctl sends a fresh idempotency key itself: an example needs none.
        fields = [
            f
            for f in body.get("fields", ())
            if idem.get("in") != "body" or f["name"] != idem["name"]
        ]
        examples.append(f"{command}{args}{field_args(fields) or ' --field KEY=VALUE'}")
        data = body_json(fields)
        if data == "{}" or len(data) > INLINE_DATA_WIDTH:
            examples.append(f"{command}{args} --data @body.json -o json")
        else:
            examples.append(f"{command}{args} --data '{data}' -o json")
    elif op.get("download"):
        examples.append(f"{command}{args} --output-file export.zip")
        examples.append(f"{command}{args} > export.zip")
    else:
        examples.append(f"{command}{args}")
        examples.append(f"{command}{args} -o json | jq .")
    pending = op.get("pending")
    if pending and pending.get("poll") and not body.get("paged"):
        examples.append(f"{examples[0]} --wait --wait-timeout 120")
    if op.get("destructive"):
        examples.append(f"{examples[0]} --yes        # in scripts and cron: no question")
    return "Examples:\n\n" + "\n\n".join(f"  {contract_words(line)}" for line in examples)
