"""``leadctl api --paginate``: every page of a RequestDataOptions POST, items streamed."""

from __future__ import annotations

import dataclasses
from typing import Any

from leadctl.errors import LeadctlError, UsageError
from leadctl.formats import JSON
from leadctl.http.paging import Pager, PageRequest
from leadctl.inputs.fields import parse_json_text
from leadctl.output import emit_list


def paginate(
    ctx: Any, op: Any, path: str, body: Any, content: bytes | None, *, slurp: bool = False
) -> None:
    """Every page's items, streamed (--jq on each); ``slurp``: one JSON array of them all,
    which --jq reads whole, as gh's --slurp."""

    if op.method == "GET":
        raise UsageError(
            "--paginate follows the continuationToken of a collection query's pages, which "
            "are read with POST",
            hint="leave out the method, or name POST",
        )
    if content is not None:
        body = parse_json_text(content.decode("utf-8", errors="replace"), what="--input")
    if body is not None and not isinstance(body, dict):
        raise UsageError("--paginate needs a JSON object body (the collection query)")
    if slurp:
        if ctx.options.output not in (None, JSON):
            raise UsageError(f"--slurp prints one JSON array: leave out -o {ctx.options.output}")
        ctx.options.output = JSON  # one array on a terminal too, where a table is the default
    paged_op = dataclasses.replace(op, path=path, paged=True)
    pager = Pager(ctx.client(), paged_op, body or {}, PageRequest(all_pages=True))
    try:
        emit_list(ctx, pager, columns=[], streamed=not slurp)
    except LeadctlError as error:
        pager.note_resume_point(error)
        raise
    if pager.interrupted:
        raise pager.interruption_error()
