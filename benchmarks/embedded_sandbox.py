"""`--profile sandbox` against a sandbox of its own: the same read, in turns, shuffled.

    uv run python benchmarks/embedded_sandbox.py [--rounds 30] [--twice]

Times ``leadctl -p sandbox lead-statuses list -o json`` (the sandbox's app answering in
the leadctl process; also with LEADCTL_HTTP_TRANSPORT=httpx, the way it was sent before
the one-shot request reached the embedded sandbox) against ``leadctl lead-statuses list
-o json`` sent to ``leadctl sandbox serve`` on loopback (a server started once, before the
timing), and ``python -c "import typer"`` as the yardstick. Each round runs the four in a
new random order, so load that comes and goes on a shared machine falls on all of them
alike; the figure is the ratio of the medians. Bytecode is compiled first and every child
runs with it, as an installed leadctl does. Target (issue 32): the embedded read <= 1.25x
the served one.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import support

TARGET = 1.25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--twice", action="store_true", help="measure the whole run twice")
    args = parser.parse_args()
    support.compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="leadctl-embedded-") as scratch:
        env = support.child_env(Path(scratch))
        read = [support.LEADCTL, "lead-statuses", "list", "-o", "json"]
        with support.sandbox(env) as server:
            commands = {
                "typer": ([support.PYTHON, "-c", "import typer"], env),
                "served": (read, server.env(env)),
                "embedded": ([support.LEADCTL, "-p", "sandbox", *read[1:]], env),
                # The same, through httpx's client as before the one-shot request reached
                # the embedded sandbox: what handing it to the app in the process saves.
                "embedded via httpx": (
                    [support.LEADCTL, "-p", "sandbox", *read[1:]],
                    {**env, "LEADCTL_HTTP_TRANSPORT": "httpx"},
                ),
            }
            for _ in range(2 if args.twice else 1):
                found = support.shuffled_turns(commands, rounds=args.rounds, warmup=args.warmup)
                ratio = found["embedded"] / found["served"]
                verdict = "yes" if ratio <= TARGET else "no"
                print(
                    f"-p sandbox read {found['embedded'] * 1000:.1f} ms, against sandbox serve "
                    f"{found['served'] * 1000:.1f} ms: {ratio:.2f}x (target <= {TARGET}x: "
                    f"{verdict}); through httpx {found['embedded via httpx'] * 1000:.1f} ms "
                    f"({found['embedded via httpx'] / found['served']:.2f}x); import typer "
                    f"{found['typer'] * 1000:.1f} ms; load "
                    f"{support.load()}"
                )


if __name__ == "__main__":
    main()
