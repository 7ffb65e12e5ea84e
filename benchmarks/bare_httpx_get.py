"""The baseline of the read benchmark: what a user's own script would do.

    LEADCTL_BASE_URL=... LEADCTL_TOKEN=... python benchmarks/bare_httpx_get.py

One ``httpx.get`` of /lead-statuses and ``json.dump`` of the answer, nothing else: no
retries, no error messages, no options.
"""

from __future__ import annotations

import json
import os
import sys

import httpx

response = httpx.get(
    os.environ["LEADCTL_BASE_URL"] + "/lead-statuses",
    headers={"Authorization": "Bearer " + os.environ["LEADCTL_TOKEN"]},
)
response.raise_for_status()
json.dump(response.json(), sys.stdout)
sys.stdout.write("\n")
