"""Wall and CPU time of `leadctl leads import` of N rows into a local sandbox, unlimited.

    uv run python benchmarks/import_cpu.py [--rows 5000] [--runs 3] [--against DIR]

One ``leadctl sandbox serve --memory`` serves every run; each run imports N fresh NDJSON
rows (the shape of benchmarks/run.py's import suite) at the default concurrency, under GNU
time, and the median wall and CPU (user+system of the leadctl process alone) seconds are
printed with the rows per second. --against DIR times another leadctl (DIR holds its
``leadctl`` package, e.g. from ``git archive REV leadctl | tar -x -C DIR``) in turns with
this one, run for run, against the same server.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

from benchmarks.support import (
    GNU_TIME,
    LEADCTL,
    child_env,
    compile_bytecode,
    sandbox,
    write_import_rows,
)


def rows_file(work: Path, rows: int) -> Path:
    marker = f"bench{uuid.uuid4().hex[:10]}"
    source = work / f"{marker}.ndjson"
    write_import_rows(source, marker, rows)
    return source


def timed_import(source: Path, env: dict[str, str], work: Path) -> tuple[float, float]:
    report = work / "time.txt"
    report.unlink(missing_ok=True)
    timer = [GNU_TIME or "", "-f", "%e %U %S", "-o", str(report)]
    subprocess.run(
        [*timer, LEADCTL, "-q", "leads", "import", str(source)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall, user, system = (float(part) for part in report.read_text().split()[-3:])
    return wall, user + system


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another leadctl tree, timed in turns")
    args = parser.parse_args()
    if GNU_TIME is None:
        raise SystemExit("GNU time is not installed (apt-get install time)")
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="leadctl-import-cpu-") as tmp:
        work = Path(tmp)
        base = child_env(work)
        with sandbox(base) as server:
            sides = {"this": server.env(base)}
            if args.against is not None:
                other = {**server.env(base), "PYTHONPATH": str(args.against.resolve())}
                sides["other"] = other
            runs: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
            for _ in range(args.runs):
                for side, env in sides.items():
                    runs[side].append(timed_import(rows_file(work, args.rows), env, work))
        for side, taken in runs.items():
            wall = statistics.median(run[0] for run in taken)
            cpu = statistics.median(run[1] for run in taken)
            print(
                f"leads import {args.rows} rows {side:>5}: wall {wall:5.2f} s "
                f"({args.rows / wall:5.0f} rows/s), CPU {cpu:5.2f} s "
                f"({cpu / args.rows * 1e6:4.0f} us a row; medians of {args.runs})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
