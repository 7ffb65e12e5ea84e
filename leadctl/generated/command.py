"""One generated verb as a Typer command, built from its index entry.

Path parameters become arguments, query and header parameters options (enums become
choices, arrays repeatable options), a JSON body ``--field``/``--data``, a
RequestDataOptions body leadctl's paging and query options, and an operation whose
answer carries a pending status ``--wait``/``--wait-timeout``.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.generated.confirm import YES_HELP
from leadctl.generated.prose import contract_prose, contract_words, operation_line
from leadctl.generated.samples import body_json, field_args, param_args
from leadctl.generated.window import SINCE, SinceOption, window_of
from leadctl.http.paging_flags import (
    AllOption,
    CountOption,
    CursorOption,
    LimitOption,
    PageSizeOption,
)

if TYPE_CHECKING:
    from leadctl.config.credential_use import Place
    from leadctl.contract.catalogue import OperationCatalogue
    from leadctl.contract.entries import Body, BodyField, Parameter
    from leadctl.contract.operations import Operation

    # Each callback parameter's name and the contract parameter it carries.
    Bindings = list[tuple[str, Parameter]]

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
DownloadOption = Annotated[
    str | None,
    typer.Option(
        "--download",
        metavar="FILE",
        help="Wait as --wait does, then download the settled resource's file to FILE "
        "(complete or not at all).",
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


def param_annotation(spec: Parameter) -> Any:
    """The Python type Typer turns into the parameter's click type."""
    if spec.type == "array":
        item = _choice(spec.enum) if spec.enum else _SCALARS[spec.items or "string"]
        return _LIST[item]
    if spec.enum:
        return _choice(spec.enum)
    return _SCALARS.get(spec.type, str)


def param_help(spec: Parameter) -> str:
    text = contract_prose(spec.description)
    if spec.where == "header":
        text = f"{text} (header {contract_words(spec.name)})".strip()
    elif spec.where == "query" and spec.flag != f"--{spec.name}":
        text = f"{text} (query {contract_words(spec.name)})".strip()
    return text


KEYWORD = inspect.Parameter.KEYWORD_ONLY


def _parameters(op: Operation) -> tuple[list[inspect.Parameter], Bindings]:
    """The callback's parameters and, per parameter name, the contract's parameter it
    carries."""
    out: list[inspect.Parameter] = []
    bindings: Bindings = []
    path = [p for p in op.parameters if p.where == "path"]
    others = [p for p in op.parameters if p.where != "path"]
    for index, spec in enumerate(path):
        out.append(_argument(f"path_{index}", spec))
        bindings.append((f"path_{index}", spec))
    for index, spec in enumerate(others):
        out.append(_option(f"param_{index}", spec))
        bindings.append((f"param_{index}", spec))
    out += _body_options(op.body)
    if window_of(op.parameters) is not None:
        out.append(inspect.Parameter(SINCE, KEYWORD, annotation=SinceOption, default=None))
    if op.destructive:
        out.append(inspect.Parameter("yes", KEYWORD, annotation=YesOption, default=False))
    if op.download:
        out.append(
            inspect.Parameter("output_file", KEYWORD, annotation=OutputFileOption, default=None)
        )
    if op.waits:
        out.append(inspect.Parameter("wait", KEYWORD, annotation=WaitOption, default=False))
        out.append(
            inspect.Parameter(
                "wait_timeout", KEYWORD, annotation=WaitTimeoutOption, default=DEFAULT_WAIT_TIMEOUT
            )
        )
        if op.pending is not None and op.pending.download:
            out.append(
                inspect.Parameter("download", KEYWORD, annotation=DownloadOption, default=None)
            )
    return out, bindings


def _argument(name: str, spec: Parameter) -> inspect.Parameter:
    """A path parameter as a positional argument."""
    info = typer.Argument(metavar=spec.metavar, help=contract_prose(spec.description) or None)
    annotation = _ANNOTATED[param_annotation(spec), info]
    return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation)


def _option(name: str, spec: Parameter) -> inspect.Parameter:
    """A query or header parameter as an option (a boolean one as --flag/--no-flag)."""
    python_type = param_annotation(spec)
    flag = str(spec.flag)
    decls = [f"{flag}/--no-{flag[2:]}"] if spec.type == "boolean" else [flag]
    # A time takes ISO 8601 or a relative form (-7d, today): not just any "str".
    metavar = "TIME" if spec.format == "date-time" else None
    info = typer.Option(*decls, help=param_help(spec) or None, show_default=False, metavar=metavar)
    if spec.required:
        return inspect.Parameter(name, KEYWORD, annotation=_ANNOTATED[python_type, info])
    annotation = _ANNOTATED[python_type | None, info]
    return inspect.Parameter(name, KEYWORD, annotation=annotation, default=None)


def _body_options(body: Body | None) -> list[inspect.Parameter]:
    """--field and --data for a body, --file for a multipart one, paging and query options
    for a collection query."""
    if body is None:
        return []
    fields_option = FormFieldsOption if body.form else FieldsOption
    out = [
        inspect.Parameter("fields", KEYWORD, annotation=fields_option, default=None),
        inspect.Parameter("data", KEYWORD, annotation=DataOption, default=None),
    ]
    if body.form == "multipart":
        out.append(inspect.Parameter("files", KEYWORD, annotation=FilesOption, default=None))
    elif body.paged:
        for name, annotation, default in PAGED_OPTIONS:
            out.append(inspect.Parameter(name, KEYWORD, annotation=annotation, default=default))
    return out


def build_verb(op: Operation, tree: OperationCatalogue, *, name: str | None = None) -> Any:
    """The click command of ``op`` (Typer's public API, from a synthesized signature),
    named ``name`` (default: its verb)."""
    parameters, bindings = _parameters(op)

    def callback(typer_ctx: typer.Context, **values: Any) -> None:
        # Loaded when the verb runs: its --help needs the flags, not the HTTP machinery.
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
        name or op.verb,
        help=help_text(op),
        short_help=short_help(op),
        epilog=epilog(op),
        deprecated=op.deprecated,
    )(callback)
    return typer.main.get_command(app)


# -- help ---------------------------------------------------------------------------------


def short_help(op: Operation) -> str:
    return operation_line(op.summary, op.description, op.method, op.path)


DOWNLOAD_HELP = (
    "The answer is a file: leadctl follows the service's redirect to it (the credential goes "
    "only to the service's own address) and writes its bytes to --output-file PATH, or to "
    "stdout when that is not a terminal."
)
DESTRUCTIVE_HELP = (
    "It deletes, removes or cancels something: on a terminal it asks first; in scripts pass "
    "--yes (without a terminal and --yes it is exit 2 and nothing is sent)."
)
ASSUMED_HELP = (
    "leadctl assumes the service has this operation (the service's documentation does not "
    "show it): if it answers 404, `leadctl contract pull` fetches what the service really has."
)
TIMES_HELP = (
    "Times (date-time parameters and fields) take ISO 8601 (an offset-less time is in the "
    "profile's timezone) or relative forms such as -7d, today, yesterday 09:00."
)
PHONE_HELP = (
    "A phone number argument may be national (the profile's region) or +E.164; it is sent in E.164."
)
PAGED_HELP = (
    "The body is a collection query, built from --search, --filter, --range and --order-by "
    "(the syntax of `leads list`) and paged with --page-size, --limit, --all and --cursor; "
    "--data and --field add anything else it takes."
)


def help_text(op: Operation) -> str:
    parts = [short_help(op)]
    description = contract_prose(op.description.strip())
    if description and " ".join(description.split()).rstrip(".") != parts[0].rstrip("."):
        parts.append(description)
    parts.append(credential_sentence(op))
    if op.download:
        parts.append(DOWNLOAD_HELP)
    if op.destructive:
        parts.append(DESTRUCTIVE_HELP)
    parts.append(
        f"{op.method} {contract_words(op.path)} (operationId {contract_words(op.id)}), "
        f"generated from the service's contract. {retry_sentence(op)}"
    )
    if op.assumed:
        parts.append(ASSUMED_HELP)
    times = [p for p in op.parameters if p.format in ("date-time", "date")]
    if times or _has_times(op.body.fields if op.body else ()):
        parts.append(TIMES_HELP)
    if any(p.phone for p in op.parameters):
        parts.append(PHONE_HELP)
    body_help = _body_help(op.body)
    if body_help:
        parts.append(body_help)
    if op.pending is not None and op.pending.poll:
        pending = op.pending
        parts.append(
            contract_words(
                f"--wait polls {pending.poll} until {pending.field} is no longer "
                f"{' or '.join(pending.pending)}; "
                f"{' or '.join(pending.failed) or 'no value'} ends in exit 6."
                + (
                    f" --download FILE then fetches its file with {pending.download}."
                    if pending.download
                    else ""
                )
            )
        )
    return "\n\n".join(parts)


def _body_help(body: Body | None) -> str | None:
    """What --help says of the body: its form fields, a media type leadctl cannot send,
    the collection query, or its JSON fields."""
    if body is None:
        return None
    if body.form:
        media = contract_words(body.media)
        lines = ["\b", f"Form fields ({media}; --field NAME=VALUE, --file NAME=@PATH):"]
        for field in body.fields:
            shown = field._replace(type="file") if field.name in body.files else field
            lines += _field_lines(shown)
        return "\n".join(lines)
    if not body.json:
        return (
            f"The body is {contract_words(body.media)}: leadctl sends JSON, multipart/form-data "
            "and form-urlencoded bodies only."
        )
    if body.paged:
        return PAGED_HELP
    if body.fields:
        lines = ["\b", "Body fields (JSON; --field KEY=VALUE, a.b for a nested field, or --data):"]
        for field in body.fields:
            lines += _field_lines(field)
        return "\n".join(lines)
    return None


def _has_times(fields: Sequence[BodyField]) -> bool:
    return any(f.type in ("date-time", "date") or _has_times(f.fields) for f in fields)


def retry_sentence(op: Operation) -> str:
    """What --help says of retries (cli.md "Retries"), from the compiled index."""
    reason = op.retry_reason
    idem = op.idempotency
    if op.retry_safe:
        text = f"Retry-safe ({reason}): retried on 429, 5xx and network failures."
        if idem:
            where = "header" if idem.where == "header" else "body field"
            text += (
                f" A fresh idempotency key goes in the {where} {contract_words(idem.name)} "
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


def credential_sentence(op: Operation) -> str:
    """Which credential the operation needs and where it goes, from the contract's security
    (cli.md "Credentials")."""
    # Known kinds in the order of CREDENTIAL_NAMES, any other after them by name.
    order = list(CREDENTIAL_NAMES)
    kinds = sorted(op.kinds, key=lambda k: (order.index(k) if k in order else len(order), k))
    if not kinds:
        return "Credential: none (security: []); no credential is sent."
    shown = [CREDENTIAL_NAMES.get(k, k) for k in kinds]
    listed = ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0]
    places = [_place_text(place) for requirement in op.requirements for place in requirement.places]
    if places and places != [BEARER_TEXT]:
        listed += ", sent " + " or ".join(dict.fromkeys(places))
    return f"Credential: {listed}."


BEARER_TEXT = "as Authorization: Bearer"  # the default: --help does not say it


def _place_text(place: Place) -> str:
    """How a credential is sent, after "sent"."""
    if place.scheme == "bearer":
        return BEARER_TEXT
    if place.scheme == "basic":
        return "with HTTP Basic (the stored user:password, or a key as the user name)"
    if place.where == "header" and place.scheme != "key":
        return f"as Authorization: {place.scheme.capitalize()}"
    where = "query parameter" if place.where == "query" else place.where
    return f"in the {contract_words(place.name)} {where}"


def _field_lines(field: BodyField, prefix: str = "", depth: int = 1) -> list[str]:
    """A field as one line (the help formatter wraps it to the terminal), then the fields
    of a required object under it as dot paths (``contact.firstName``)."""
    kind = field.type
    if field.enum:
        kind = f"{kind}: one of " + ", ".join(str(v) for v in field.enum)
    note = ", required" if field.required else ""
    path = f"{prefix}{field.name}"
    text = contract_words(f"{path} ({kind}{note})")
    if field.description:
        text += ": " + " ".join(contract_prose(field.description).split())
    elif kind == "array of object" and not prefix:
        # --field cannot address an item's fields (steps[].id): the list goes as JSON.
        text += f": a JSON list, --field '{contract_words(path)}=[{{...}}]'"
    lines = ["  " * depth + text]
    inner = "[]." if field.type.startswith("array") else "."
    for sub in field.fields:
        lines += _field_lines(sub, f"{path}{inner}", depth + 1)
    return lines


def epilog(op: Operation) -> str:
    """Two examples (three with --wait), filled with the operation's required path and
    query parameters and body fields."""

    command = f"leadctl {op.group} {op.verb}"
    args = param_args(op.parameters, op.path)
    examples = _examples(op, command, args)
    if op.waits and not op.paged:
        examples.append(f"{examples[0]} --wait --wait-timeout 120")
    if op.destructive:
        examples.append(f"{examples[0]} --yes        # in scripts and cron: no question")
    return "Examples:\n\n" + "\n\n".join(f"  {contract_words(line)}" for line in examples)


def _examples(op: Operation, command: str, args: str) -> list[str]:
    """The two examples of what the operation takes and answers."""

    body = op.body
    if body is not None and body.paged:
        return [
            f"{command}{args} --all -o ndjson | jq -c .",
            f"{command}{args} --limit 50 -o csv > items.csv",
        ]
    if body is not None and body.json:
        idem = op.idempotency
        # leadctl sends a fresh idempotency key itself: an example needs none.
        fields = [
            f for f in body.fields if idem is None or idem.where != "body" or f.name != idem.name
        ]
        data = body_json(fields)
        return [
            f"{command}{args}{field_args(fields) or ' --field KEY=VALUE'}",
            f"{command}{args} --data @body.json -o json"
            if data == "{}" or len(data) > INLINE_DATA_WIDTH
            else f"{command}{args} --data '{data}' -o json",
        ]
    if op.download:
        return [f"{command}{args} --output-file export.zip", f"{command}{args} > export.zip"]
    return [f"{command}{args}", f"{command}{args} -o json | jq ."]
