"""What one TAB costs when it completes values from the service: ms and requests.

    uv run python benchmarks/completion_values.py [--rounds 15]

Presses TAB after ``leadctl -p sb leads get `` in bash (the completion function of the
script rendered from the current tree, running the installed leadctl), against ``leadctl
sandbox serve`` on loopback, in four cases, each round in a new random order:

- cold: the completion cache removed first (one request);
- warm: the cache filled less than a minute ago (no request);
- not listed: ``sources update`` under the bundled contract, which cannot list sources;
- mute: a profile whose service accepts the connection and never answers.

Requests are counted at the sandbox (its request log), per TAB.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import support

from leadctl.docgen.completion import render_completion

LINE = {
    "cold": "leadctl -p sb leads get ",
    "warm": "leadctl -p sb leads get ",
    "not listed": "leadctl -p bundled sources update ",
    "mute": "leadctl -p mute leads get ",
}
BASH = (
    'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
    "COMP_LINE=$LINE; COMP_POINT=${#COMP_LINE}; _leadctl; "
    'printf "%s\\n" "${COMPREPLY[@]}"'
)


def tab(script: Path, line: str, env: dict[str, str]) -> tuple[float, int]:
    words = [*line.split(), ""]
    started = time.perf_counter()
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH, "bash", str(script), *words],
        env={**env, "LINE": line},
        capture_output=True,
        text=True,
        check=True,
    )
    took = (time.perf_counter() - started) * 1000
    return took, len([w for w in done.stdout.splitlines() if w])


def leadctl(env: dict[str, str], *args: str) -> None:
    subprocess.run([support.LEADCTL, *args], env=env, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    support.compile_bytecode()
    with (
        tempfile.TemporaryDirectory(prefix="leadctl-tab-") as scratch,
        socket.socket() as mute,
    ):
        mute.bind(("127.0.0.1", 0))
        mute.listen(64)
        mute_url = f"http://127.0.0.1:{mute.getsockname()[1]}"
        script = Path(scratch) / "leadctl.bash"
        script.write_text(render_completion("bash"), encoding="utf-8")
        env = support.child_env(Path(scratch))
        with support.sandbox(env, "--faults") as server:
            env["LEADCTL_TOKEN"] = server.org_key
            control = httpx.Client(base_url=server.base_url)
            published = Path(scratch) / "published.json"
            published.write_bytes(control.get("/openapi.json").content)
            leadctl(env, "-p", "sb", "profile", "set", "base_url", server.base_url)
            leadctl(env, "-p", "sb", "contract", "import", str(published))
            # Contracts are stored per base URL: the same server by another name keeps
            # leadctl's bundled contract, which cannot list sources.
            other_name = server.base_url.replace("127.0.0.1", "localhost")
            leadctl(env, "-p", "bundled", "profile", "set", "base_url", other_name)
            leadctl(env, "-p", "mute", "profile", "set", "base_url", mute_url)
            leadctl(env, "-p", "mute", "contract", "import", str(published))
            cache = Path(scratch) / "cache" / "completion"
            results: dict[str, list[tuple[float, int, int]]] = {name: [] for name in LINE}
            for _ in range(args.rounds):
                order = list(LINE)
                random.shuffle(order)
                for case in order:
                    if case == "cold":
                        shutil.rmtree(cache, ignore_errors=True)
                    elif case == "warm":
                        tab(script, LINE[case], env)  # fill it (not timed)
                    control.delete("/_sandbox/requests")
                    took, offered = tab(script, LINE[case], env)
                    sent = len(control.get("/_sandbox/requests").json()["items"])
                    results[case].append((took, sent, offered))
    summary = {
        case: {
            "median_ms": round(support.median([r[0] for r in rows]), 1),
            "max_ms": round(max(r[0] for r in rows), 1),
            "requests_per_tab": sorted({r[1] for r in rows}),
            "candidates": sorted({r[2] for r in rows}),
        }
        for case, rows in results.items()
    }
    print(json.dumps({"rounds": args.rounds, "load": support.load(), "cases": summary}, indent=2))


if __name__ == "__main__":
    main()
