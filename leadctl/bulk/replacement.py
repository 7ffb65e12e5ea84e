"""``batch`` of a full-replacement PUT: each line's fields are merged into the resource as
read, exactly as the single command does (:func:`leadctl.verbkit.replace.whole_body`), so a line
that names only what changes still sends a whole, valid body (with ``If-Match``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from leadctl.verbkit.replace import put_shape, whole_body

if TYPE_CHECKING:
    from leadctl.bulk.sender import Job, Prepare
    from leadctl.contract.operations import Operation
    from leadctl.verbkit.invocation import RequestInvocation


def replacement_preparer(ctx: RequestInvocation, op: Operation) -> Prepare | None:
    """Per line, the PUT's whole body; None when ``op`` is no PUT whose schema requires
    fields (its lines are sent as they are)."""
    if op.method != "PUT":
        return None

    shape = put_shape(ctx, op)
    if shape is None or not shape.required:
        return None
    ctx.client()  # built once here, not by the first workers at the same time

    def prepare(job: Job) -> Job:
        changes: dict[str, Any] = dict(job.body) if isinstance(job.body, dict) else {}
        planned = whole_body(
            ctx, op, shape, path_params=job.path_params, changes=changes, headers=job.headers
        )
        return replace(job, body=planned.body, headers=tuple(planned.headers))

    return prepare
