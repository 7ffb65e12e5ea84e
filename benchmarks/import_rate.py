"""How fast one process sends: ``leadctl leads import`` at --concurrency 1, 2 and 4 against
a bare httpx async loop (benchmarks/bare_httpx_import.py, 4 in flight), in shuffled turns,
against one fast local server.

    uv run python benchmarks/import_rate.py [--rows 3000] [--rounds 5] [--twice]
                                            [--server fast|sandbox] [--against DIR]

The server (``--server fast``, the default) is benchmarks/fast_leads_server.py: one asyncio
loop answering every POST /leads with the contract's 202 and a fixed lead, so what is timed
is the client. Its own CPU time over each run is printed as a share of that run's wall
time: well under one core, it is not what limits the rate. ``--server sandbox`` uses
``leadctl sandbox serve --memory`` instead (it validates and stores every lead: on a small
machine it is the bottleneck, so every client looks alike there).

Each round runs every command once, in a new random order (support.shuffled_turns' rule),
each on a fresh NDJSON file of ``--rows`` rows (benchmarks/support.py's shape). Per command:
requests per second (rows over the process's wall time, start-up included), wall, and CPU
(user + system of the child, from os.wait4), medians over the rounds; then the ratios of
rates, each the median of the per-round ratios (both sides of a ratio taken in the same
round, so load that comes and goes falls on both). Targets are issue 32's: the import at
its best concurrency at least the bare loop's rate, and a higher concurrency never slower
than a lower one (a per-round median ratio of at least 0.97: the noise of the same command
against itself on a loaded 2-core machine). ``--against DIR`` runs another checkout's
leadctl (DIR holds its ``leadctl`` package, e.g. ``git archive REV leadctl | tar -x -C
DIR``) at the same concurrencies in the same turns.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import support

ROWS = 3000
ROUNDS = 5
CONCURRENCIES = (1, 2, 4)
BARE = "bare httpx async, 4"
LAUNCH = "import sys; from leadctl.__main__ import main; sys.exit(main())"
# A per-round rate ratio of a higher concurrency to a lower one below this is "slower".
NOISE = 0.97


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float
    server_cpu: float


@dataclass(frozen=True)
class Server:
    base_url: str
    token: str
    pid: int


@contextmanager
def fast_server(env: Mapping[str, str]) -> Iterator[Server]:
    argv = [support.PYTHON, str(support.BENCH / "fast_leads_server.py")]
    with support.serving(argv, env) as (process, ready):
        yield Server(ready["baseUrl"], "sk_bench_fast_server", process.pid)


@contextmanager
def sandbox_server(env: Mapping[str, str]) -> Iterator[Server]:
    with support.sandbox(env) as sandbox:
        yield Server(sandbox.base_url, sandbox.org_key, sandbox.process.pid)


def cpu_seconds(pid: int) -> float:
    """User + system seconds of a running process (/proc/PID/stat, clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def commands(
    against: Path | None, against_env: Mapping[str, str], env: Mapping[str, str]
) -> dict[str, tuple[list[str], Mapping[str, str]]]:
    """Name -> (argv with FILE for the input, env)."""
    found: dict[str, tuple[list[str], Mapping[str, str]]] = {
        BARE: ([support.PYTHON, str(support.BENCH / "bare_httpx_import.py"), "FILE", "4"], env)
    }
    for n in CONCURRENCIES:
        found[f"leadctl c={n}"] = (
            [support.LEADCTL, "-q", "leads", "import", "FILE", "--concurrency", str(n)],
            env,
        )
        if against is not None:
            argv = [support.PYTHON, "-c", LAUNCH, "-q", "leads", "import", "FILE"]
            found[f"against c={n}"] = ([*argv, "--concurrency", str(n)], against_env)
    return found


def run_once(argv: Sequence[str], env: Mapping[str, str], server: Server, cwd: Path) -> Sample:
    server_before = cpu_seconds(server.pid)
    started = time.perf_counter()
    process = subprocess.Popen(
        list(argv),
        env=dict(env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}: {errors.decode()[-600:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, cpu_seconds(server.pid) - server_before)


def measure_round(
    timed: Mapping[str, tuple[list[str], Mapping[str, str]]],
    server: Server,
    work: Path,
    rows: int,
) -> dict[str, Sample]:
    names = list(timed)
    random.shuffle(names)
    found: dict[str, Sample] = {}
    for name in names:
        marker = f"rate{uuid.uuid4().hex[:10]}"
        source = work / f"{marker}.ndjson"
        support.write_import_rows(source, marker, rows)
        argv, env = timed[name]
        argv = [str(source) if part == "FILE" else part for part in argv]
        found[name] = run_once(argv, env, server, work)
        source.unlink()
    return found


def report(rounds: list[dict[str, Sample]], rows: int, against: bool) -> None:
    names = list(rounds[0])
    order = [BARE, *sorted(n for n in names if n != BARE)]
    print(f"{rows} rows a run, {len(rounds)} rounds; load {support.load()}")

    def rate(sample: Sample) -> float:
        return rows / sample.wall

    def paired(a: str, b: str) -> tuple[float, float, float]:
        ratios = [rate(r[a]) / rate(r[b]) for r in rounds]
        return statistics.median(ratios), min(ratios), max(ratios)

    for name in order:
        walls = [r[name].wall for r in rounds]
        cpus = [r[name].cpu for r in rounds]
        server = [r[name].server_cpu / r[name].wall for r in rounds]
        ratio, low, high = paired(name, BARE)
        print(
            f"  {name:<20} {rows / statistics.median(walls):7.0f} req/s  "
            f"wall {statistics.median(walls):5.2f} s  CPU {statistics.median(cpus):5.2f} s "
            f"({statistics.median(cpus) / rows * 1e6:4.0f} us/row)  "
            f"server {statistics.median(server):4.0%} of a core  "
            f"rate {ratio:.2f}x bare ({low:.2f}-{high:.2f})"
        )
    sides = ["leadctl"] + (["against"] if against else [])
    for side in sides:
        best = max(CONCURRENCIES, key=lambda n: paired(f"{side} c={n}", BARE)[0])
        ratio = paired(f"{side} c={best}", BARE)[0]
        verdict = "yes" if ratio >= 1.0 else "no"
        print(f"  {side}: best c={best} at {ratio:.2f}x bare; target >= 1.0x: {verdict}")
        steps = []
        never_slower = True
        for low_n, high_n in itertools.pairwise(CONCURRENCIES):
            ratio, low, high = paired(f"{side} c={high_n}", f"{side} c={low_n}")
            never_slower &= ratio >= NOISE
            steps.append(f"c={high_n}/c={low_n} {ratio:.2f}x ({low:.2f}-{high:.2f})")
            cpu_ratio = statistics.median(
                r[f"{side} c={high_n}"].cpu / r[f"{side} c={low_n}"].cpu for r in rounds
            )
            steps[-1] += f", CPU {cpu_ratio:.2f}x"
        verdict = "yes" if never_slower else "no"
        print(f"  {side}: {'; '.join(steps)}; never slower (>= {NOISE}): {verdict}")
        if against:
            for n in CONCURRENCIES:
                ratio, low, high = paired(f"leadctl c={n}", f"against c={n}")
                if side == "leadctl":
                    print(f"  c={n} this/against: {ratio:.2f}x ({low:.2f}-{high:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--twice", action="store_true", help="measure the whole run twice")
    parser.add_argument("--server", choices=("fast", "sandbox"), default="fast")
    parser.add_argument("--against", type=Path, help="another checkout, timed in the same turns")
    args = parser.parse_args()
    support.compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="leadctl-import-rate-") as scratch:
        work = Path(scratch)
        base = support.child_env(work)
        start = fast_server if args.server == "fast" else sandbox_server
        with start(base) as server:
            env = {**base, "LEADCTL_BASE_URL": server.base_url, "LEADCTL_TOKEN": server.token}
            against_env: dict[str, str] = {}
            if args.against is not None:
                against_env = {**env, "PYTHONPATH": str(args.against.resolve())}
            timed = commands(args.against, against_env, env)
            print(f"server: {args.server} ({server.base_url})")
            for _ in range(2 if args.twice else 1):
                for _ in range(args.warmup):
                    measure_round(timed, server, work, min(args.rows, 500))
                rounds = [measure_round(timed, server, work, args.rows) for _ in range(args.rounds)]
                report(rounds, args.rows, args.against is not None)


if __name__ == "__main__":
    main()
