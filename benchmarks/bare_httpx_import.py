"""The baseline of the import-rate benchmark: POST /leads for every NDJSON row, with plain
httpx, as a user would write it.

    LEADCTL_BASE_URL=... LEADCTL_TOKEN=... python benchmarks/bare_httpx_import.py FILE [N]

One ``httpx.AsyncClient``, every row a task under ``asyncio.gather`` with a semaphore of N
(4) requests in flight; a row not answered 2xx makes the exit 1. No retries, no pacing, no
report: the least a script does.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import httpx


async def main(path: str, concurrency: int) -> int:
    with open(path, encoding="utf-8") as source:
        rows = [json.loads(line) for line in source if line.strip()]
    headers = {"Authorization": "Bearer " + os.environ["LEADCTL_TOKEN"]}
    limit = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(
        base_url=os.environ["LEADCTL_BASE_URL"], headers=headers, timeout=30
    ) as client:

        async def post(row: dict[str, object]) -> bool:
            async with limit:
                response = await client.post("/leads", json=row)
                return response.is_success

        done = await asyncio.gather(*(post(row) for row in rows))
    failed = done.count(False)
    print(f"{len(done) - failed} created, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4)))
