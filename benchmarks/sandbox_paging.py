"""Per-page latency of POST /leads/all/my deep into a million leads (not a timed test).

    uv run python benchmarks/sandbox_paging.py [--leads 1000000] [--page-size 200]
        [--pages 1,100,1000,5000] [--sort createdAt:desc --sort lastName:asc] [--repeat 5]

Starts ``leadctl sandbox serve --memory --leads N`` (the time until it is ready is the seed
time), then walks every page of the collection for each sort with continuation tokens,
and at each page in --pages sends that page's request --repeat more times: the median of
those is the page's latency. With keyset paging on an index, the last page costs what the
first does. Client and server share the machine, so the numbers include the client's share.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

LEADCTL = os.path.join(os.path.dirname(sys.executable), "leadctl")


def start(leads: int) -> tuple[subprocess.Popen[bytes], str, str, float]:
    env = dict(os.environ, LEADCTL_DATA_DIR=tempfile.mkdtemp(prefix="leadctl-bench-"))
    argv = [LEADCTL, "sandbox", "serve", "--memory", "--port", "0", "--seed", "1"]
    started = time.perf_counter()
    process = subprocess.Popen(
        [*argv, "--leads", str(leads), "--print-json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert process.stdout is not None
    ready = json.loads(process.stdout.readline())
    seeded = time.perf_counter() - started
    return process, ready["baseUrl"], ready["credentials"]["org"], seeded


def walk(
    client: httpx.Client, order: dict[str, str], page_size: int, pages: list[int], repeat: int
) -> tuple[dict[int, float], int]:
    """Median milliseconds of each page in ``pages``, and how many pages there were."""
    found: dict[int, float] = {}
    token = None
    number = 0
    while True:
        number += 1
        body: dict[str, Any] = {
            "pageSize": page_size,
            "orderBy": [order],
            "continuationToken": token,
        }
        if number in pages:
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                client.post("/leads/all/my", json=body).raise_for_status()
                times.append((time.perf_counter() - started) * 1000)
            found[number] = statistics.median(times)
        page = client.post("/leads/all/my", json=body)
        page.raise_for_status()
        token = page.json()["continuationToken"]
        if token is None:
            return found, number


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--leads", type=int, default=1_000_000)
    parser.add_argument("--page-size", type=int, default=200)
    parser.add_argument("--pages", default="1,100,1000,5000")
    parser.add_argument("--sort", action="append", help="FIELD:asc|desc (repeatable)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pages = [int(p) for p in args.pages.split(",")]
    sorts = args.sort or ["createdAt:desc", "lastName:asc"]
    process, base_url, key, seeded = start(args.leads)
    print(f"seeded {args.leads} leads (+ demo data) and ready in {seeded:.1f} s")
    try:
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=base_url, headers=headers, timeout=60) as client:
            for sort in sorts:
                field, _, direction = sort.partition(":")
                started = time.perf_counter()
                found, total = walk(
                    client, {"field": field, "direction": direction or "asc"},
                    args.page_size, pages, args.repeat,
                )  # fmt: skip
                walked = time.perf_counter() - started
                shown = ", ".join(f"page {p}: {ms:.1f} ms" for p, ms in sorted(found.items()))
                print(f"{sort:<16} {total} pages in {walked:.1f} s; {shown}")
    finally:
        process.terminate()
        process.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
