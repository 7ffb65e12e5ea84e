"""Reads of the service that more than one command group makes, written once here (a
command never imports another group's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from leadctl.contract.operations import curated
from leadctl.contract.shapes import require_objects
from leadctl.errors import BadResponse

if TYPE_CHECKING:
    from leadctl.verbkit.invocation import RequestInvocation


def read_lead_statuses(ctx: RequestInvocation) -> list[dict[str, Any]]:
    """GET /lead-statuses: the organization's statuses as the service sent them, checked
    to be an array of objects (`lead-statuses list|get`, the status colors of `leads list`)."""

    statuses = ctx.client().call_json(curated(ctx, "GET", "/lead-statuses"))
    if not isinstance(statuses, list):
        raise BadResponse(
            f"GET /lead-statuses answered with {type(statuses).__name__}, not an array"
        )
    return require_objects(statuses, what="lead statuses")
