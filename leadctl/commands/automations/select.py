"""Picking runs out of an automation's run history: by status, or one run by (prefix of) id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.errors import NotFound, UsageError

# Shorter prefixes would match by accident more often than they help.
MIN_PREFIX = 4


def status_matches(run: Mapping[str, Any], wanted: str) -> bool:
    """Case-insensitive match on the run's status (or its display text, which is what a
    person sees in the table)."""
    target = wanted.strip().casefold()
    return any(
        isinstance(run.get(key), str) and run[key].strip().casefold() == target
        for key in ("status", "statusDisplay")
    )


def find_run(runs: list[dict[str, Any]], run_id: str, automation_id: str) -> dict[str, Any]:
    """The run with this id, or the one run whose id starts with it (typing a unique
    prefix, like git's short hashes, saves copying a whole UUID)."""
    exact = [run for run in runs if run.get("id") == run_id]
    if exact:
        return exact[0]
    wanted = run_id.strip()
    matches = []
    if len(wanted) >= MIN_PREFIX:
        matches = [
            run for run in runs if isinstance(run.get("id"), str) and run["id"].startswith(wanted)
        ]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        shown = ", ".join(str(run["id"]) for run in matches[:5])
        raise UsageError(
            f"--run {run_id!r} matches {len(matches)} runs: {shown}",
            hint="give more of the id",
        )
    raise NotFound(
        f"no run {run_id!r} among the {len(runs)} recent runs of automation {automation_id!r}",
        hint=f"the service keeps recent runs only; list them with "
        f"`leadctl automations runs {automation_id}`",
    )
