"""The baseline of the export benchmark: every page of leads as NDJSON, with plain httpx.

    LEADCTL_BASE_URL=... LEADCTL_TOKEN=... python benchmarks/bare_httpx_paging.py [PAGE_SIZE]

One keep-alive client, one page after the other (no fetching ahead), each item written
as a compact JSON line as soon as its page is decoded.
"""

from __future__ import annotations

import json
import os
import sys

import httpx

page_size = int(sys.argv[1]) if len(sys.argv) > 1 else 200
headers = {"Authorization": "Bearer " + os.environ["LEADCTL_TOKEN"]}
body: dict[str, object] = {"pageSize": page_size}
write = sys.stdout.write
with httpx.Client(base_url=os.environ["LEADCTL_BASE_URL"], headers=headers, timeout=30) as client:
    while True:
        response = client.post("/leads/all/my", json=body)
        response.raise_for_status()
        page = response.json()
        for item in page["items"]:
            write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")
        token = page.get("continuationToken")
        if not token:
            break
        body = {"pageSize": page_size, "continuationToken": token}
sys.stdout.flush()
