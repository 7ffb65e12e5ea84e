"""``leadctl batch OPERATION``: one request per NDJSON input line, through the bulk engine.

Each line names the operation's path, query and header parameters and body fields by
name, e.g. ``{"id": "lead_1", "tags": ["vip"]}``; a line that is not a JSON object is a
bare value for an operation with exactly one path parameter (``lead_1`` or ``"lead_1"``).
Lines are numbered from 1; a line that cannot be sent (not JSON, a required parameter
missing, a field the operation does not take) is reported ``invalid`` and the batch goes
on.

Per line it does what the single command does: a collection read whose body is a query
sends ``{}`` when the line gives only path parameters, a full-replacement PUT reads the
resource and merges the line into it (:mod:`leadctl.bulk.replacement`). A destructive
operation (:mod:`leadctl.bulk.destructive`) needs ``--yes`` once for the whole run.

The operation is any of the active contract's: ``group verb`` as the command line names
it (curated or generated), or its operationId. Its retry safety is the operation model's
(``op.retry_safe``); an operation that takes an idempotency key gets one per line, kept
in the report, and sent again with the same key.
"""

from __future__ import annotations

import difflib
import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from leadctl.bulk.destructive import is_destructive_operation
from leadctl.bulk.engine import Tally, Words, progress_wanted, run_jobs
from leadctl.bulk.options import STDIN, BatchOptions
from leadctl.bulk.replacement import replacement_preparer
from leadctl.bulk.report import UNKNOWN, ResumeState, holding_reports, read_resume
from leadctl.bulk.rows import digest_of
from leadctl.bulk.runner import check_report_target, open_input, reports_of, resendable
from leadctl.bulk.sender import Job, Plan
from leadctl.config.rate_limit import known_limit
from leadctl.contract.body_schema import json_body_schema
from leadctl.contract.document import Document
from leadctl.contract.field_paths import FieldPaths
from leadctl.contract.naming import kebab
from leadctl.errors import DryRunDone, UsageError
from leadctl.util.jsontext import NotJson, loads_input
from leadctl.verbkit.replace import CHANGED_MEANWHILE, replace_resource

if TYPE_CHECKING:
    from leadctl.config.rate_limit import RateLimit
    from leadctl.contract.catalogue import OperationCatalogue
    from leadctl.contract.field_paths import FieldPaths
    from leadctl.contract.operations import Operation
    from leadctl.verbkit.invocation import RequestInvocation

MIN_CONCURRENCY = 1
MAX_CONCURRENCY = 32


# -- the operation -----------------------------------------------------------------------


def operation_names(tree: OperationCatalogue) -> dict[str, Operation]:
    """Every name an operation answers to: ``group verb``, the curated command, the
    operationId and its kebab case, and ``METHOD /path/{template}``."""

    names: dict[str, Operation] = {}
    for op in tree.all_operations():
        for name in (
            op.curated,
            f"{op.group} {op.verb}" if op.group and op.verb else None,
            op.operation_id,
            op.id,
            kebab(op.operation_id) if op.operation_id else None,
            f"{op.method} {op.path}",
        ):
            if name:
                names.setdefault(name, op)
    return names


def find_operation(tree: OperationCatalogue, name: str) -> Operation:
    """The index entry of OPERATION; exit 2 with the closest names when there is none."""
    wanted = " ".join(name.split())
    names = operation_names(tree)
    method, _, path = wanted.partition(" ")
    if path.startswith("/"):
        wanted = f"{method.upper()} {path}"
    found = names.get(wanted)
    if found is not None:
        return found
    spaced = [n for n in names if " " in n]
    close: list[str] = []
    seen: set[str] = set()
    for candidate in difflib.get_close_matches(wanted, list(names), n=10, cutoff=0.6):
        if names[candidate].id not in seen:  # one name per operation
            seen.add(names[candidate].id)
            close.append(candidate)
    close = close[:3]
    hint = (
        "did you mean " + " or ".join(f"'{n}'" for n in close) + "?"
        if close
        else "name it as `group verb` (e.g. 'leads get'), by operationId, or as "
        "'METHOD /path/{param}'; "
        f"{len(spaced)} operations: see `leadctl contract show`"
    )
    raise UsageError(f"unknown operation {name!r}", hint=hint)


@dataclass(frozen=True)
class Shape:
    """What a line may name for one operation."""

    path: tuple[str, ...]
    query: frozenset[str]
    headers: frozenset[str]
    required: frozenset[str]  # parameters
    has_body: bool
    body_fields: frozenset[str] | None  # None: the contract does not list them
    body_required: frozenset[str]
    key_header: str | None
    key_field: str | None
    # The body is a collection query (RequestDataOptions): `{}` asks for the first page.
    query_body: bool = False
    # A PUT replaces the whole resource: required fields a line leaves out are read.
    replaces: bool = False
    # The body schema's field paths, nested ones included (None: the contract shows none).
    body_paths: FieldPaths | None = None


def shape_of(op: Operation, contract: Mapping[str, Any] | None) -> Shape:
    params = op.parameters
    path = tuple(p.name for p in params if p.where == "path")
    query = frozenset(p.name for p in params if p.where == "query")
    headers = frozenset(p.name for p in params if p.where == "header")
    required = frozenset(p.name for p in params if p.required or p.where == "path")
    has_body, fields, body_required = _body_of(op, contract)
    # Where the operation model found its idempotency key (none: it takes none).
    idempotency = op.idempotency
    key_header = idempotency.name if idempotency and idempotency.where == "header" else None
    key_field = idempotency.name if idempotency and idempotency.where == "body" else None
    if key_header is not None:
        headers = headers | {key_header}
    return Shape(
        path=path,
        query=query,
        headers=headers,
        required=required,
        has_body=has_body,
        body_fields=fields,
        body_required=body_required - ({key_field} if key_field else set()),
        key_header=key_header,
        key_field=key_field,
        query_body=op.body is not None and op.body.collection_query,
        replaces=op.method == "PUT",
        body_paths=_body_paths(op, contract),
    )


def _body_of(
    op: Operation, contract: Mapping[str, Any] | None
) -> tuple[bool, frozenset[str] | None, frozenset[str]]:
    """(takes a body, its top-level fields, the required ones), from the contract itself
    (the index lists body fields for generated operations only)."""
    meta = op.body
    if meta is not None:
        names = frozenset(f.name for f in meta.fields)
        required = frozenset(f.name for f in meta.fields if f.required)
        return True, names or None, required
    if contract is None:
        return op.method in ("POST", "PUT", "PATCH"), None, frozenset()

    document = Document(contract)
    spec = (contract.get("paths", {}).get(op.path) or {}).get(op.method.lower())
    request = document.resolve((spec or {}).get("requestBody"))
    if not isinstance(request, Mapping):
        return False, None, frozenset()
    content = request.get("content") or {}
    media = next((m for m in content if "json" in str(m)), None)
    schema = (content.get(media) or {}).get("schema") if media else None
    if schema is None:
        return True, None, frozenset()
    names = frozenset(document.properties(schema))
    return True, names or None, frozenset(document.required(schema))


def _body_paths(op: Operation, contract: Mapping[str, Any] | None) -> FieldPaths | None:
    """Where the lines' body fields are checked, level by level (leads create's rule)."""
    if contract is None:
        return None

    document = Document(contract)
    spec = (contract.get("paths", {}).get(op.path) or {}).get(op.method.lower())
    schema = json_body_schema(document, spec)
    return None if schema is None else FieldPaths(document, schema, noun="the operation's body")


# -- the lines ---------------------------------------------------------------------------

KeyFor = Callable[[int], str]


def parse_line(number: int, raw: bytes, shape: Shape, key_for: KeyFor) -> Job:
    """The request one input line asks for, or an invalid job saying why not."""
    text = raw.strip()
    digest = digest_of(text)

    def invalid(problem: str) -> Job:
        return Job(number, digest, problem=problem)

    if not text:
        return invalid("empty line")
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        return invalid("not UTF-8 text")
    value: Any
    if decoded.startswith(("{", "[", '"')):
        # Only a line written as JSON is read as JSON: an object (the request), or a
        # string as `jq` prints it without -r. An array is JSON but never a request.
        try:
            value = loads_input(decoded)
        except NotJson as error:
            return invalid(f"invalid JSON: {error}")
        except json.JSONDecodeError as error:
            return invalid(f"invalid JSON: {error.msg} at column {error.colno}")
    else:
        # Anything else is a bare id, as written: `2e5255c3-...`, `1e3`, `0012` and `NaN`
        # are ids, never numbers, whatever they happen to look like.
        value = decoded
    if not isinstance(value, dict):
        if len(shape.path) != 1 or not isinstance(value, str):
            taken = ", ".join(shape.path) or "no path parameter"
            return invalid(
                "not a JSON object; a bare value is only for an operation with one path "
                f"parameter (this one takes {taken})"
            )
        value = {shape.path[0]: value}
    return _job(number, digest, value, shape, key_for)


def _job(number: int, digest: str, line: Mapping[str, Any], shape: Shape, key_for: KeyFor) -> Job:
    path: dict[str, str] = {}
    query: dict[str, Any] = {}
    headers: list[tuple[str, str]] = []
    body: dict[str, Any] = {}
    unknown: list[str] = []
    for name, value in line.items():
        if name in shape.path or name in shape.query or name in shape.headers:
            text = _param_text(value)
            if text is None:
                return Job(number, digest, problem=f"{name}: a parameter takes a scalar value")
            if name in shape.path:
                if text == "":
                    return Job(number, digest, problem=f"{name} must not be empty")
                path[name] = text
            elif name in shape.query:
                query[name] = text
            else:
                headers.append((name, text))
        elif shape.has_body and (
            # Where the schema is known, its field paths decide below (did you mean...).
            shape.body_paths is not None or shape.body_fields is None or name in shape.body_fields
        ):
            body[name] = value
        else:
            unknown.append(name)
    if unknown:
        return Job(
            number,
            digest,
            problem=f"the operation does not take {', '.join(sorted(unknown))}",
        )
    body_missing = set() if shape.replaces else shape.body_required - body.keys()
    typo = shape.body_paths.unknown_in(body) if shape.body_paths is not None else None
    if typo is not None:
        return Job(number, digest, problem=f"{typo.message} ({typo.hint})")
    missing = sorted(
        (shape.required - path.keys() - query.keys() - {h for h, _ in headers}) | body_missing
    )
    if missing:
        return Job(number, digest, problem=f"missing {', '.join(missing)}")
    key: str | None = None
    if shape.key_header is not None:
        given = next((v for h, v in headers if h.lower() == shape.key_header.lower()), None)
        key = given or key_for(number)
        if given is None:
            headers.append((shape.key_header, key))
    elif shape.key_field is not None:
        given_field = body.get(shape.key_field)
        key = str(given_field) if given_field else key_for(number)
        body[shape.key_field] = key
    if shape.has_body and not body and shape.replaces:
        return Job(number, digest, problem="nothing to change: the line names no field")
    return Job(
        number,
        digest,
        path_params=path or None,
        params=query or None,
        # An empty query asks for everything (the first page), as the single command sends.
        body=body if shape.has_body and (body or shape.query_body) else None,
        headers=tuple(headers),
        key=key,
    )


def _param_text(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def numbered(lines: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    return enumerate(lines, start=1)


# -- running -----------------------------------------------------------------------------


def run_batch(ctx: RequestInvocation, options: BatchOptions) -> None:

    tree = options.tree
    if not MIN_CONCURRENCY <= options.concurrency <= MAX_CONCURRENCY:
        raise UsageError(
            f"--concurrency must be from {MIN_CONCURRENCY} to {MAX_CONCURRENCY}, "
            f"not {options.concurrency}"
        )
    if options.retry_unknown and options.resume is None:
        raise UsageError("--retry-unknown only applies with --resume REPORT")
    limit = known_limit(options.rate, ctx.settings.get("rate_limit"))
    op = find_operation(tree, options.operation)
    operation = op.with_overrides(ctx.settings)
    # The file is opened before the question: nobody should confirm a run that cannot start.
    stream, _source, path = open_input(ctx, options.input, what="lines")
    with stream:
        _confirm_destructive(ctx, op, options)
        shape = shape_of(op, _contract(tree))
        report_target = options.report or options.resume or STDIN
        # A dry run sends nothing: it may look at a report another run is using.
        held = () if ctx.options.dry_run else reports_of(options.report, options.resume)
        with holding_reports(held):
            check_report_target(report_target, options.resume)
            resume = read_resume(Path(options.resume)) if options.resume else None
            _batch(
                ctx,
                options,
                operation,
                shape,
                (stream, path),
                resume,
                report_target,
                limit,
                resendable=resendable(operation),
            )


def _confirm_destructive(ctx: RequestInvocation, op: Operation, options: BatchOptions) -> None:
    """A destructive operation is confirmed once for the whole run: asked on a terminal,
    --yes otherwise (exit 2, nothing sent). A dry run sends nothing: no question."""

    if options.yes or ctx.options.dry_run or not is_destructive_operation(op):
        return
    what = f"{op.method} {op.path}"
    if options.input == STDIN:
        # The lines come from stdin: it cannot also answer a question.
        raise UsageError(
            f"{options.operation} ({what}) is destructive: confirm it for every line with --yes",
            hint="pass --yes (the lines come from stdin, so leadctl cannot ask)",
        )
    ctx.ios.confirm(
        f"Send {what} ({options.operation}) for every line of {options.input}?",
        assume_yes=False,
    )


def _batch(
    ctx: RequestInvocation,
    options: BatchOptions,
    operation: Operation,
    shape: Shape,
    lines: tuple[IO[bytes], Path | None],
    resume: ResumeState | None,
    report_target: str,
    limit: RateLimit | None,
    *,
    resendable: bool,
) -> None:

    stream, path = lines
    if resume is not None and path is not None:
        _verify_resume(path, resume, options, resendable=resendable)
    keys = resume.keys if resume is not None else {}

    def key_for(number: int) -> str:
        return keys.get(number) or str(uuid.uuid4())

    tally = Tally()
    jobs = _jobs(stream, shape, key_for, resume, options, tally, resendable=resendable)
    if ctx.options.dry_run:
        _dry_run(ctx, operation, jobs)
        return
    words = Words(
        noun="line",
        doing=options.operation,
        done="ok",
        run="the batch",
        resume_command=f"leadctl batch '{options.operation}' --input {options.input}",
    )
    prepare = replacement_preparer(ctx, operation)
    run_jobs(
        ctx,
        plan=Plan(
            operation,
            success="ok",
            keep_result=True,
            prepare=prepare,
            refusals={412: CHANGED_MEANWHILE} if prepare is not None else {},
        ),
        jobs=jobs,
        concurrency=options.concurrency,
        tally=tally,
        report_target=report_target,
        resumed_from=options.resume,
        total=_total(ctx, path, resume),
        words=words,
        limit=limit,
    )


def _contract(tree: OperationCatalogue) -> Mapping[str, Any] | None:
    try:
        with tree.active.contract_path.open(encoding="utf-8") as handle:
            found: dict[str, Any] = json.load(handle)
    except (OSError, ValueError):
        return None
    return found


def _jobs(
    stream: IO[bytes],
    shape: Shape,
    key_for: KeyFor,
    resume: ResumeState | None,
    options: BatchOptions,
    tally: Tally,
    *,
    resendable: bool,
) -> Iterator[Job]:
    retry_unknown = options.retry_unknown or resendable
    for number, raw in numbered(stream):
        if resume is not None:
            skip = resume.skip_reason(number, retry_unknown=retry_unknown)
            if skip is not None:
                if skip[1] and skip[1] != digest_of(raw.strip()):
                    raise _changed(options, f"line {number} is not the line it reports")
                if skip[0] == UNKNOWN:
                    tally.still_unknown += 1  # not sent, and not done either: exit 9
                else:
                    tally.skipped += 1
                continue
        yield parse_line(number, raw, shape, key_for)


def _verify_resume(
    path: Path, resume: ResumeState, options: BatchOptions, *, resendable: bool
) -> None:
    """Before anything is sent: the lines the report has as done are still those lines."""
    last = 0
    with path.open("rb") as stream:
        for number, raw in numbered(stream):
            last = number
            skip = resume.skip_reason(number, retry_unknown=options.retry_unknown or resendable)
            if skip is not None and skip[1] and skip[1] != digest_of(raw.strip()):
                raise _changed(options, f"line {number} is not the line it reports as {skip[0]}")
    beyond = [number for number in resume.rows if number > last]
    if beyond:
        raise _changed(options, f"the report has line {min(beyond)} but {path} has {last}")


def _changed(options: BatchOptions, what: str) -> UsageError:
    return UsageError(
        f"--resume {options.resume}: {what}; the input changed since that batch",
        hint="resume with the same input, unedited; put new lines in a new file",
    )


def _total(ctx: RequestInvocation, path: Path | None, resume: ResumeState | None) -> int | None:
    if path is None or not progress_wanted(ctx):
        return None
    with path.open("rb") as stream:
        lines = sum(1 for _ in stream)
    done = 0 if resume is None else sum(1 for n in resume.rows if n <= lines)
    return max(0, lines - done)


def _dry_run(ctx: RequestInvocation, operation: Operation, jobs: Iterator[Job]) -> None:
    """Each line's request as a curl command (a PUT's whole body, read and merged as the
    single command shows it); invalid lines on stderr; nothing sent."""
    import contextlib

    client = ctx.client()
    invalid = 0
    for job in jobs:
        if job.problem is not None:
            invalid += 1
            ctx.ios.warn(f"line {job.number}: invalid: {job.problem}")
            continue
        with contextlib.suppress(DryRunDone):
            if operation.method == "PUT" and isinstance(job.body, dict):
                replace_resource(
                    ctx,
                    operation,
                    path_params=job.path_params,
                    changes=job.body,
                    params=job.params,
                    headers=job.headers,
                )
                continue
            client.call(
                operation,
                path_params=job.path_params,
                params=job.params,
                json_body=job.body,
                headers=job.headers,
            )
    if invalid:
        ctx.ios.info(f"dry run: {invalid} invalid lines would not be sent")
