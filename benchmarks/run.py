"""Every leadctl benchmark, in one command, against local ``leadctl sandbox serve`` servers.

    uv run python benchmarks/run.py                 # full run, writes benchmarks/RESULTS.md
    uv run python benchmarks/run.py --quick         # a smoke run: fewer runs, small sizes
    uv run python benchmarks/run.py --repeat 3      # everything 3 times: medians and spread
    uv run python benchmarks/run.py --only startup,read

1. start-up: ``leadctl --version`` and ``--help`` against ``python -c "import typer"``;
2. a read: ``leadctl lead-statuses list -o json`` against a bare httpx script, HTTPie and
   ``curl | jq``;
3. export: ``leads list --all -o ndjson`` over 10k and 100k leads, wall time and peak RSS,
   against a bare httpx paging loop and a curl+jq loop;
4. import: ``leads import`` of 10k leads into a sandbox limited to R requests per second:
   the rate achieved, and every row checked by its unique e-mail (none lost, none twice);
5. batch: 1,000 GET-one-lead lines at ``--rate-limit 100/10s``: ``leadctl batch`` against a
   shell loop of single ``leadctl`` calls and an ``xargs -P4`` loop (benchmarks/paced.py);
6. window: import and export under ``--rate-limit N/Ws``, with and without Retry-After;
7. others: the directory's other scripts (sandbox_throughput.py, generated_startup.py,
   contract_import.py, import_rate.py...), once, with their own output.

Ratios compare numbers measured in the same run. Timed children run with bytecode
compiled and PYTHONDONTWRITEBYTECODE unset. Benchmarks are not run in CI.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import paced
import support
from report import render
from support import BENCH, LEADCTL, PYTHON, hyperfine, measure, median

SUITES = ("startup", "read", "export", "import", "batch", "window", "others")
SEEDED_LEADS = 240  # the sandbox's demo organization, before --leads


@dataclass(frozen=True)
class Profile:
    hyperfine_runs: int
    warmup: int
    export_sizes: tuple[int, ...]
    export_runs: int
    shell_export_runs: int
    import_rows: int
    rate_limit: int
    capacity_rows: int
    # The curl+jq loop is left out above this many leads (it takes minutes per 100k).
    curl_max: int = 100_000
    batch_lines: int = 1_000
    batch_limit: str = "100/10s"
    window_limit: str = "100/10s"
    window_import_rows: int = 500
    window_export_leads: int = 10_000
    quick: bool = False


FULL = Profile(40, 5, (10_000, 1_000_000), 5, 2, 10_000, 200, 3_000)
QUICK = Profile(
    10, 2, (1_000, 10_000), 1, 1, 1_000, 200, 500,
    batch_lines=60, batch_limit="20/2s", window_limit="20/2s",
    window_import_rows=100, window_export_leads=1_500, quick=True,
)  # fmt: skip


@dataclass
class Results:
    """Every metric, one value per repeat."""

    values: dict[str, list[float]] = field(default_factory=dict)
    # python -X importtime of one run: (module, self µs, cumulative µs), slowest first.
    profiles: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)
    # What the directory's other scripts printed.
    others: dict[str, list[str]] = field(default_factory=dict)

    def add(self, name: str, value: float) -> None:
        self.values.setdefault(name, []).append(value)

    def median(self, name: str) -> float:
        return median(self.values[name])

    def spread(self, name: str) -> str:
        found = self.values[name]
        if len(found) < 2:
            return "-"
        return f"{min(found):.3g}-{max(found):.3g}"


# -- 1. start-up -------------------------------------------------------------------------


def startup(env: dict[str, str], profile: Profile, work: Path, results: Results) -> None:
    found = hyperfine(
        {
            "typer": f'{PYTHON} -c "import typer"',
            "version": f"{LEADCTL} --version",
            "help": f"{LEADCTL} --help",
            "import leadctl.cli.app": f'{PYTHON} -c "import leadctl.cli.app"',
        },
        env,
        runs=profile.hyperfine_runs,
        warmup=profile.warmup,
        out=work / "startup.json",
    )
    for name, seconds in found.items():
        results.add(f"startup {name} ms", seconds * 1000)
    results.add("ratio version/typer", found["version"] / found["typer"])
    results.add("ratio help/typer", found["help"] / found["typer"])
    results.add("ratio import app/typer", found["import leadctl.cli.app"] / found["typer"])
    turns = support.alternating(
        {"typer": [PYTHON, "-c", "import typer"], "help": [LEADCTL, "--help"]},
        env,
        rounds=profile.hyperfine_runs,
        warmup=profile.warmup,
    )
    results.add("startup typer in turns ms", turns["typer"] * 1000)
    results.add("startup help in turns ms", turns["help"] * 1000)
    results.add("ratio help/typer in turns", turns["help"] / turns["typer"])


# -- 2. one read -------------------------------------------------------------------------


def read(env: dict[str, str], profile: Profile, work: Path, results: Results) -> None:
    with support.sandbox(env) as server:
        served = server.env(env)
        url = f"{server.base_url}/lead-statuses"
        # The credential reaches curl and HTTPie through files, never a command line.
        headers = work / "curl-headers"
        headers.write_text(f"Authorization: Bearer {server.org_key}\n")
        headers.chmod(0o600)
        session = work / "httpie-session.json"
        session.write_text(
            json.dumps(
                {
                    "headers": [{"name": "Authorization", "value": f"Bearer {server.org_key}"}],
                    "cookies": [],
                    "auth": {"type": None, "username": None, "password": None},
                }
            )
        )
        session.chmod(0o600)
        found = hyperfine(
            {
                "leadctl": f"{LEADCTL} lead-statuses list -o json",
                "bare httpx": f"{PYTHON} {BENCH / 'bare_httpx_get.py'}",
                "httpie": f"{support.BIN / 'http'} --ignore-stdin "
                f"--session-read-only={session} GET {url}",
                "curl | jq": f"bash -c 'curl -sS -H @{headers} {url} | jq .'",
            },
            served,
            runs=profile.hyperfine_runs,
            warmup=profile.warmup,
            out=work / "read.json",
        )
        results.profiles["leadctl lead-statuses list -o json"] = importtime(
            served, ["lead-statuses", "list", "-o", "json"]
        )
    for name, seconds in found.items():
        results.add(f"read {name} ms", seconds * 1000)
    results.add("ratio read leadctl/bare httpx", found["leadctl"] / found["bare httpx"])
    results.add("ratio read leadctl/httpie", found["leadctl"] / found["httpie"])


# -- 3. export ---------------------------------------------------------------------------

EXPORTERS: dict[str, Callable[[], list[str]]] = {
    "leadctl": lambda: [LEADCTL, "leads", "list", "--all", "--page-size", "200", "-o", "ndjson"],
    "bare httpx": lambda: [PYTHON, str(BENCH / "bare_httpx_paging.py"), "200"],
    "curl+jq": lambda: [str(BENCH / "curl_jq_paging.sh"), "200"],
}


def export(env: dict[str, str], profile: Profile, work: Path, results: Results) -> None:
    large = _size(profile.export_sizes[-1])
    for size in profile.export_sizes:
        label = _size(size)
        with support.sandbox(env, "--leads", str(size)) as server:
            served = server.env(env)
            exporters = {
                name: argv
                for name, argv in EXPORTERS.items()
                if name != "curl+jq" or size <= profile.curl_max
            }
            for name, argv in exporters.items():
                # Once into a file, to check every lead comes out exactly once.
                out = work / f"export-{name}.ndjson"
                with out.open("wb") as sink:
                    checked = measure(argv(), served, stdout=sink)
                _check_export(name, checked, out, size + SEEDED_LEADS)
                out.unlink()
            # Interleaved, so that the machine's other work weighs on every tool alike;
            # the slow curl+jq loop runs fewer times.
            runs: dict[str, list[support.Run]] = {name: [] for name in exporters}
            paired: list[float] = []
            for turn in range(profile.export_runs):
                for name, argv in exporters.items():
                    if name == "curl+jq" and turn >= profile.shell_export_runs:
                        continue
                    runs[name].append(measure(argv(), served))
                paired.append(runs["leadctl"][-1].seconds / runs["bare httpx"][-1].seconds)
            for name, done in runs.items():
                results.add(f"export {label} {name} s", median([r.seconds for r in done]))
                results.add(f"export {label} {name} MiB", max(r.max_rss_mib for r in done))
            if label == large:
                # Each leadctl run against the bare run right after it.
                results.add("ratio export large leadctl/bare httpx", median(paired))
    small = _size(profile.export_sizes[0])
    results.add(
        "ratio export rss large/small",
        results.values[f"export {large} leadctl MiB"][-1]
        / results.values[f"export {small} leadctl MiB"][-1],
    )


def _check_export(name: str, run: support.Run, out: Path, expected: int) -> None:
    if run.exit_code != 0:
        raise SystemExit(f"{name} failed ({run.exit_code}): {run.stderr[-500:]}")
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    if len(ids) != expected or len(set(ids)) != expected:
        raise SystemExit(
            f"{name} wrote {len(ids)} leads ({len(set(ids))} distinct), not {expected}"
        )


# -- 4. import ---------------------------------------------------------------------------


def import_(env: dict[str, str], profile: Profile, work: Path, results: Results) -> None:
    rate = profile.rate_limit
    with support.sandbox(env) as server:
        found = _import_once(server, env, work, profile.capacity_rows)
    results.add("import unlimited rows/s", found["rows/s"])
    with support.sandbox(env, "--rate-limit", str(rate)) as server:
        found = _import_once(server, env, work, profile.import_rows)
    results.add("import limit R", rate)
    results.add("import rows/s", found["rows/s"])
    results.add("import sending rows/s", found["sending rows/s"])
    results.add("ratio import rate/R", found["rows/s"] / rate)
    results.add("import 429 answers", found["429"])
    results.add("import lost", found["lost"])
    results.add("import duplicated", found["duplicated"])


def _import_once(
    server: support.Sandbox, env: dict[str, str], work: Path, rows: int
) -> dict[str, float]:
    marker = f"bench{uuid.uuid4().hex[:10]}"
    source = work / f"{marker}.ndjson"
    support.write_import_rows(source, marker, rows)
    report = work / f"{marker}.report.ndjson"
    run = measure(
        [LEADCTL, "leads", "import", str(source), "--report", str(report)], server.env(env)
    )
    if run.exit_code != 0:
        raise SystemExit(f"leads import failed ({run.exit_code}): {run.stderr[-800:]}")
    sending = re.search(r"sent in [0-9.]+s \(([0-9.]+)/s\)", run.stderr)
    refused = re.search(r"rate limited (\d+) times?", run.stderr)
    created = sum(1 for line in report.read_text().splitlines() if '"created"' in line)
    # Checked without leadctl, with another credential (its own rate-limit bucket).
    emails = _emails(server, marker)
    distinct = set(emails)
    expected = {f"{marker}-{n}@import.example" for n in range(rows)}
    return {
        "rows/s": rows / run.seconds,
        "sending rows/s": float(sending.group(1)) if sending else 0.0,
        "429": float(refused.group(1)) if refused else 0.0,
        "created": created,
        "lost": len(expected - distinct),
        "duplicated": len(emails) - len(distinct),
    }


def _emails(server: support.Sandbox, marker: str) -> list[str]:
    headers = {"Authorization": f"Bearer {server.user_token}"}
    body: dict[str, Any] = {"search": marker, "searchFields": ["email"], "pageSize": 200}
    emails: list[str] = []
    with httpx.Client(base_url=server.base_url, headers=headers, timeout=60) as client:
        while True:
            page = client.post("/leads/all/my", json=body).raise_for_status().json()
            emails += [item["email"] for item in page["items"]]
            if not page.get("continuationToken"):
                return emails
            body = {**body, "continuationToken": page["continuationToken"]}


# -- 5. the directory's other benchmarks -------------------------------------------------

OTHERS = {
    "sandbox_throughput.py": (["--duration", "10"], ["--duration", "3"]),
    "generated_startup.py": (["--runs", "40"], ["--runs", "10"]),
    "contract_import.py": (["--runs", "5"], ["--runs", "2"]),
    "embedded_sandbox.py": (["--rounds", "30", "--twice"], ["--rounds", "8"]),
    "help_paths.py": (["--rounds", "25", "--twice"], ["--rounds", "6"]),
    "import_rate.py": (
        ["--rows", "3000", "--rounds", "7", "--twice"],
        ["--rows", "500", "--rounds", "2"],
    ),
}


def others(env: dict[str, str], profile: Profile, work: Path, results: Results) -> None:
    """The other scripts here, run as they are; their own summary lines are reported."""
    if results.others:
        return  # once is enough: they take no part in the repeats' medians
    for script, (full, quick) in OTHERS.items():
        argv = [PYTHON, str(BENCH / script), *(quick if profile.quick else full)]
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0:
            lines.append(f"(exit {done.returncode}) {done.stderr.strip()[-300:]}")
        results.others[script] = lines


# -- profiles and the report -------------------------------------------------------------


def importtime(env: dict[str, str], argv: list[str], top: int = 12) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) of the slowest top-level imports of one run."""
    proc = subprocess.run(
        [PYTHON, "-X", "importtime", "-m", "leadctl", *argv],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    rows = []
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if match:
            rows.append((match[3], match[4], int(match[1]), int(match[2])))
    total = sum(row[2] for row in rows)
    ranked = sorted(rows, key=lambda row: -row[3])[:top]
    return [("(all imports)", total, total)] + [
        (indent.replace(" ", "·") + name, own, cumulative)
        for indent, name, own, cumulative in ranked
    ]


def _size(size: int) -> str:
    return f"{size // 1000}k" if size >= 1000 else str(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, smaller sizes")
    parser.add_argument("--repeat", type=int, default=1, help="run everything N times")
    parser.add_argument("--only", default=",".join(SUITES), help="comma-separated suites")
    parser.add_argument(
        "--limit",
        default=None,
        help="the sandbox's --rate-limit for the batch and window suites (e.g. 100/10s)",
    )
    parser.add_argument("--batch-lines", type=int, default=None, help="lines of the batch suite")
    parser.add_argument(
        "--export-sizes", default=None, help="comma-separated lead counts of the export suite"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help="where to write the markdown (default: benchmarks/RESULTS.md, none with --quick)",
    )
    args = parser.parse_args()
    profile = QUICK if args.quick else FULL
    if args.limit:
        profile = replace(profile, batch_limit=args.limit, window_limit=args.limit)
    if args.batch_lines:
        profile = replace(profile, batch_lines=args.batch_lines)
    if args.export_sizes:
        sizes = tuple(int(size) for size in args.export_sizes.split(","))
        profile = replace(profile, export_sizes=sizes)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = set(chosen) - set(SUITES)
    if unknown:
        parser.error(f"unknown suites: {', '.join(sorted(unknown))}")
    output = args.output or (None if args.quick else BENCH / "RESULTS.md")

    print("compiling bytecode…", file=sys.stderr)
    support.compile_bytecode()
    machine = support.machine()
    loads = [support.load()]
    results = Results()
    suites = {
        "startup": startup,
        "read": read,
        "export": export,
        "import": import_,
        "batch": paced.batch,
        "window": paced.window,
        "others": others,
    }
    with tempfile.TemporaryDirectory(prefix="leadctl-bench-") as scratch:
        work = Path(scratch)
        env = support.child_env(work)
        for repeat in range(args.repeat):
            for name in chosen:
                print(
                    f"[{repeat + 1}/{args.repeat}] {name} (load {support.load()})…",
                    file=sys.stderr,
                )
                suites[name](env, profile, work, results)
                loads.append(support.load())
        results.profiles["leadctl --help"] = importtime(env, ["--help"])
    text = render(machine, loads, profile, args.repeat, args.quick, chosen, results)
    print(text)
    if output is not None:
        output.write_text(text)
        print(f"written: {output}", file=sys.stderr)


if __name__ == "__main__":
    main()
