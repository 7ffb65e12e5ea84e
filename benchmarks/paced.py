"""The paced suites of benchmarks/run.py: work at the service's rate limit.

- ``batch``: 1,000 ``GET /leads/{id}`` against a sandbox limited to N requests per W
  seconds, three ways: ``leadctl batch 'leads get'``, a shell loop of single ``leadctl
  leads get`` calls, and the same calls four at a time with ``xargs -P4``; the rate each
  achieved, its wall time, and the lines lost (no answer written) or answered twice.
- ``window``: ``leads import`` and ``leads list --all`` against a fixed window (N per W
  seconds), with and without Retry-After: the rate achieved against N/W, nothing lost.

``GET /leads/{id}`` comes from the sandbox's published contract, pulled into the
benchmark's scratch cache first; the shell loops call it by its verb, found in that
contract (``leads get``, whatever the operationId).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import httpx
import support
from support import LEADCTL, measure

SEEDED_LEADS = 240


def per_second(limit: str) -> float:
    """N/W of a ``--rate-limit`` value: ``100/10s`` -> 10.0, ``200`` -> 200.0."""
    match = re.fullmatch(r"(\d+)(?:/(\d+(?:\.\d+)?)s)?", limit)
    if match is None:
        raise SystemExit(f"not a rate limit: {limit!r}")
    return int(match[1]) / float(match[2] or 1)


def pull_contract(env: dict[str, str]) -> None:
    done = subprocess.run(
        [LEADCTL, "contract", "pull"], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"contract pull failed: {done.stderr[-500:]}")


def verb_for(env: dict[str, str], method: str, path: str) -> list[str]:
    """The command words of an operation in the pulled contract (its index names them)."""
    for index in Path(env["LEADCTL_CACHE_DIR"]).glob("contracts/*/index.json"):
        head = json.loads(index.read_text())
        # A stored index keeps its operations beside it, in the directory it names.
        operations = head.get("operations")
        if operations is None:
            operations = json.loads((index.parent / head["files"] / "operations.json").read_text())
        for op in operations:
            if op["method"] == method and op["path"] == path:
                return [str(op["group"]), str(op["verb"])]
    raise SystemExit(f"the pulled contract has no {method} {path}")


def lead_ids(server: support.Sandbox, count: int) -> list[str]:
    """The first ``count`` lead ids, read with plain httpx and the user token (its own
    rate-limit bucket)."""
    headers = {"Authorization": f"Bearer {server.user_token}"}
    body: dict[str, Any] = {"pageSize": 200}
    ids: list[str] = []
    with httpx.Client(base_url=server.base_url, headers=headers, timeout=60) as client:
        while len(ids) < count:
            page = client.post("/leads/all/my", json=body).raise_for_status().json()
            ids += [item["id"] for item in page["items"]]
            token = page.get("continuationToken")
            if not token:
                break
            body = {"pageSize": 200, "continuationToken": token}
    return ids[:count]


def answered_ids(path: Path) -> list[str]:
    """The ``id`` of every JSON value in ``path`` (objects one after another, any layout)."""
    text = path.read_text()
    decoder = json.JSONDecoder()
    found: list[str] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return found
        value, at = decoder.raw_decode(text, at)
        if isinstance(value, dict):
            inner = value.get("result") if "outcome" in value else value
            if isinstance(inner, dict) and "id" in inner:
                found.append(str(inner["id"]))


# -- batch -------------------------------------------------------------------------------


def batch(env: dict[str, str], profile: Any, work: Path, results: Any) -> None:
    limit = profile.batch_limit
    allowed = per_second(limit)
    results.add("batch limit per second", allowed)
    results.add("batch lines", profile.batch_lines)
    # The demo data has a few hundred leads: generate enough for one line each.
    more = ("--leads", str(profile.batch_lines))
    with support.sandbox(env, "--rate-limit", limit, *more) as server:
        served = server.env(env)
        pull_contract(served)
        ids = lead_ids(server, profile.batch_lines)
        if len(ids) < profile.batch_lines:
            raise SystemExit(f"the sandbox has {len(ids)} leads, not {profile.batch_lines}")
        get = " ".join(verb_for(served, "GET", "/leads/{id}"))
        source = work / "batch-ids.txt"
        source.write_text("".join(f"{ident}\n" for ident in ids))
        report = work / "batch.report.ndjson"
        ways = {
            "leadctl batch": [
                LEADCTL, "batch", "GET /leads/{id}", "--input", str(source), "--report",
                str(report),
            ],
            "shell loop": [
                "bash", "-c",
                f'while IFS= read -r id; do {LEADCTL} {get} "$id" -o ndjson; done < {source}',
            ],
            "xargs -P4": [
                "bash", "-c", f"xargs -P4 -n1 {LEADCTL} {get} -o ndjson < {source}",
            ],
        }  # fmt: skip
        for name, argv in ways.items():
            out = work / f"batch-{name.replace(' ', '-')}.out"
            # Each way starts with a fresh window: wait out the previous way's.
            _wait_for_window(server, limit)
            with out.open("wb") as sink:
                run = measure(argv, served, stdout=sink)
            got = answered_ids(report if name == "leadctl batch" else out)
            answered = set(got)
            results.add(f"batch {name} s", run.seconds)
            results.add(f"batch {name} rate", len(answered) / run.seconds)
            results.add(f"batch {name} ratio", len(answered) / run.seconds / allowed)
            results.add(f"batch {name} lost", len(set(ids) - answered))
            results.add(f"batch {name} duplicated", len(got) - len(answered))
            results.add(f"batch {name} exit", run.exit_code)


def _wait_for_window(server: support.Sandbox, limit: str) -> None:
    """Sleep one window, so each way starts on a fresh quota (a benchmark, not a test)."""
    import time

    match = re.fullmatch(r"\d+/(\d+(?:\.\d+)?)s", limit)
    time.sleep(float(match[1]) if match else 1.0)


# -- import and export against a window --------------------------------------------------


def window(env: dict[str, str], profile: Any, work: Path, results: Any) -> None:
    from run import _check_export, _import_once

    limit = profile.window_limit
    allowed = per_second(limit)
    results.add("window limit per second", allowed)
    for variant, extra in (("Retry-After", []), ("no Retry-After", ["--no-retry-after"])):
        with support.sandbox(env, "--rate-limit", limit, *extra) as server:
            found = _import_once(server, env, work, profile.window_import_rows)
            results.add(f"window import {variant} ratio", found["rows/s"] / allowed)
            results.add(f"window import {variant} lost", found["lost"])
            results.add(f"window import {variant} duplicated", found["duplicated"])
        with support.sandbox(
            env, "--rate-limit", limit, *extra, "--leads", str(profile.window_export_leads)
        ) as server:
            out = work / "window-export.ndjson"
            argv = [LEADCTL, "leads", "list", "--all", "--page-size", "50", "-o", "ndjson"]
            with out.open("wb") as sink:
                run = measure(argv, server.env(env), stdout=sink)
            _check_export("leadctl", run, out, profile.window_export_leads + SEEDED_LEADS)
            pages = -(-(profile.window_export_leads + SEEDED_LEADS) // 50)
            results.add(f"window export {variant} ratio", pages / run.seconds / allowed)
            results.add(f"window export {variant} s", run.seconds)
