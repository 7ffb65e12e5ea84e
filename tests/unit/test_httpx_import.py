"""leadctl imports httpx as an install without httpx's ``cli`` extra would: httpx's own
fallback ``main`` instead of its command-line tool (click, rich, pygments: ~40 ms).

This pins the one thing leadctl knows of httpx's insides, the module name ``httpx._main``
(httpx>=0.27,<0.29): an upgrade that moves it fails here, not silently in start-up time.
"""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import json, sys
import leadctl.http.client
from leadctl.http._httpx import httpx as stand_in
loaded_on_import = "httpx" in sys.modules
stand_in.Client  # reading a name loads httpx
import httpx
held_back = sorted(m for m in ("rich", "pygments", "httpx._main") if m in sys.modules)
fallback = httpx.main.__module__
import httpx._main  # the block is gone once httpx has loaded: nothing else is affected
print(json.dumps([loaded_on_import, held_back, fallback, "rich" in sys.modules]))
"""


def test_httpx_loads_without_its_command_line_tool_and_leaves_no_block_behind() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    loaded_on_import, held_back, fallback, cli_loaded_later = json.loads(proc.stdout)
    assert not loaded_on_import  # the client's module imports the stand-in, not httpx
    assert held_back == []
    assert fallback == "httpx"  # httpx's stub for installs without the cli extra
    assert cli_loaded_later  # importing the tool on purpose still works
