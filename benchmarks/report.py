"""benchmarks/RESULTS.md from one run of benchmarks/run.py: machine, tables, targets, notes.

The notes at the end (what stands in the way where a target is missed) are kept here, by
hand, next to the code that writes the numbers they talk about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

NOTES = """\
## How these numbers were taken

- Every timed child ran with bytecode compiled (`compileall` over leadctl, the benchmarks
  and the venv's site-packages; the standard library ships compiled) and with
  PYTHONDONTWRITEBYTECODE removed from its environment. The development environment sets
  PYTHONDONTWRITEBYTECODE=1: without compiled bytecode every start-up compiles what it
  imports and costs several times as much.
- Start-up and the read: `hyperfine -N` (no shell), medians. `curl | jq` runs under
  `bash -c` (a pipe needs a shell; bash adds about 1 ms). curl and HTTPie get the
  credential from a header file / a read-only session file, never on a command line.
- Export: wall time measured around each child; peak RSS by GNU time (`/usr/bin/time -f
  %M`; for the curl+jq loop the largest process of the pipeline). Measured from a child
  forked by the Python harness, Linux would report at least the harness's own RSS. Every
  tool first wrote one run to a file that was checked: every lead exactly once. Then 5
  runs taken in turns (leadctl, bare httpx, curl+jq; curl+jq only twice); the 100k ratio
  is the median of each leadctl run against the bare run right after it. All three use
  pageSize 200 (the sandbox's largest page).
- Import: 10 000 NDJSON rows, `--concurrency 4` (the default), into a sandbox started with
  `--rate-limit R` (a token bucket per credential: R requests per second, bursts of R,
  Retry-After in whole seconds). "rows/s" divides the rows by the wall time of the whole
  command (start-up and the initial burst included); "sending" is leadctl's own figure for
  the sending phase. Lost and duplicated rows are counted by listing the leads afterwards
  with plain httpx and another credential, by the unique e-mail every row carries.
  "unlimited" is the same import without a rate limit: what this machine can do at all.
- The sandbox runs on the same 2-core machine as the client, so server time is in every
  number; the comparisons share it equally. Other work on the machine shows in the load
  averages above; the spread column is min-max over the repeats.

## What was changed for these numbers, and what stands in the way

- `leadctl --version` alone is answered before Typer is imported (leadctl/__main__.py),
  so it costs a bare interpreter start, far below `import typer`. `--help` must build the
  command tree: Typer (with its vendored Click and `inspect`) is most of it, see the
  `--help` profile; `python -c "import leadctl.cli.app"` is the tree's import cost alone.
- httpx imports its own command-line tool (click, rich, pygments: about 40 ms) whenever
  those are installed, as they are beside Typer. leadctl imports httpx without it
  (leadctl/http/_httpx.py); the bare httpx script, written as a user would, still pays it.
  That, and no Typer, is why the two end up level.
- The read: Typer (~25 ms) and httpx + httpcore (~45 ms) are imported either way. httpx
  builds a TLS context (loading the CA bundle: certifi's, or SSL_CERT_FILE's, 20-80 ms on
  this machine) for every client, even for the sandbox's http:// URL. leadctl now gives a
  plain-http base URL a transport with no certificate store and mounts https:// on a
  transport built (and its bundle read) only when an https URL is first used
  (leadctl/http/_httpx.py LazyTransport); the bare script still pays it. That, not a smaller
  import, is most of the gap to the bare script.
- Export: the sandbox renders every page from SQLite and is most of the wall time
  (`sandbox serve --leads N` adds an index on the listing's order: without it each page of
  100 000 leads was a full scan and sort, 350 ms a page instead of about 1.5 ms). leadctl
  fetches the next page while it writes the current one. It used to start a thread per
  page, and `Thread.start()` waits for the new thread to be scheduled: over a millisecond
  a page on this busy 2-core machine, which made leadctl ~20% slower than the sequential
  bare loop at 10k (A/B in one process: 492 ms against 405 ms). One fetch thread reused for
  every page (leadctl/http/paging.py) brought it level (401 ms; at 100k 8.1 s against 9.0 s in
  the same A/B). Still one page ahead, never more (tests/unit/test_paging_lookahead.py).
  Run as commands, the two stay within about 10% of each other either way at 100k: the
  server's time per page dominates, and this environment sets PYTHONUNBUFFERED=1, so both
  make one write(2) per item. Peak RSS stays flat: each item is written as it arrives.
  The curl+jq loop starts three processes and a new connection per page.
- Import, batch, paging: one pacer (leadctl/http/pacer.py). A 429 starts a storm: every
  worker waits exactly the Retry-After, or without one a full-jitter backoff (from one slot
  of the current pace, at most 2 s between probes). The storm's end (the first answer to a
  request sent after it began) measures the pace: answers since the previous storm's end
  over the time between the two ends, so against a fixed window it is N/W whatever the
  phase, against a token bucket the refill rate. The pace then grows by 5% per measured
  period, doubling the growth for each quiet period, and is released (no pace, or the
  known limit) after two periods without a 429, so one stray 429 does not slow a run for
  good. A limit the user knows (`rate_limit`, `--rate N/WINDOW`) paces evenly from the first
  request. tests/commands/leads/test_import_pacer.py simulates fixed windows (with and without
  Retry-After, four phases, four jitter seeds), token buckets and a one-off 429 on an
  injected clock.
- Batch: the shell loop pays a process start (Typer, httpx) per line, so it stays far below
  the limit; `xargs -P4` reaches it but each process retries its own 429s (at most
  --max-retries 4, exit 7 when a window outlasts them: those lines are lost).
- Contract import: checking a contract used to be most of it, and most of that was
  openapi-spec-validator running the pure-Python jsonschema over every schema (and its own
  import, pydantic-settings and jsonschema included, about 0.25 s). The meta-schema now
  runs once over the whole document on jsonschema-rs, every Schema Object against the
  version's dialect in the same pass (leadctl/contract/openapi_meta.py), and the rules no
  meta-schema states are leadctl's own (openapi_semantics.py). Compiling the index
  (leadctl/contract/index.py) is now most of a 1,500-operation import.
"""


def render(
    machine: dict[str, str],
    loads: Sequence[str],
    profile: Any,
    repeat: int,
    quick: bool,
    suites: Sequence[str],
    results: Any,
) -> str:
    lines = ["# leadctl benchmarks", ""]
    command = "uv run python benchmarks/run.py" + (" --quick" if quick else "")
    if repeat > 1:
        command += f" --repeat {repeat}"
    lines += [
        f"Measured {machine['date']} with `{command}` (suites: {', '.join(suites)}; "
        f"each repeated {repeat}x, medians of the repeats, spread = min-max).",
        "",
        "| machine | |",
        "|---|---|",
        f"| CPU | {machine['cpu']}, {machine['nproc']} cores (nproc) |",
        f"| memory | {machine['memory']} |",
        f"| Python | {machine['python']} |",
        f"| OS | {machine['os']} |",
        f"| leadctl | commit {machine['commit']} |",
        f"| tools | {machine['hyperfine']}; {machine['curl'].split(' (')[0]}; "
        f"{machine['jq']}; HTTPie {machine['httpie']} |",
        f"| load average (1/5/15 min) | before {loads[0]}; after {loads[-1]} |",
        "",
    ]
    lines += _targets(results, profile)
    lines += _tables(results, profile)
    lines += _paced_tables(results, profile)
    if results.others:
        lines += ["## 7. The directory's other benchmarks (run once)", ""]
        for script, output in results.others.items():
            lines += [f"`benchmarks/{script}`:", "", "```"]
            lines += output or ["(no output)"]
            lines += ["```", ""]
    for title, rows in results.profiles.items():
        lines += [
            f"### `python -X importtime` of `{title}` (slowest, nesting shown by ·)",
            "",
            "| module | self ms | cumulative ms |",
            "|---|---:|---:|",
        ]
        lines += [
            f"| {name} | {own / 1000:.1f} | {total / 1000:.1f} |" for name, own, total in rows
        ]
        lines.append("")
    lines.append(NOTES)
    return "\n".join(lines)


def _targets(results: Any, profile: Any) -> list[str]:
    values = results.values
    large, small = _size(profile.export_sizes[-1]), _size(profile.export_sizes[0])
    checks = [
        ('`leadctl --version` ≤ 1.1x `python -c "import typer"`', "ratio version/typer", 1.1),
        ('`leadctl --help` ≤ 1.1x `python -c "import typer"`', "ratio help/typer", 1.1),
        (
            '`leadctl --help` ≤ 1.1x `python -c "import typer"`, run in turns',
            "ratio help/typer in turns",
            1.1,
        ),
        ("read ≤ 0.8x bare httpx script", "ratio read leadctl/bare httpx", 0.8),
        ("read ≤ 0.8x HTTPie", "ratio read leadctl/httpie", 0.8),
        (
            f"export peak RSS at {large} within 10% of {small}",
            "ratio export rss large/small",
            1.10,
        ),
        (
            f"export wall at {large} ≤ 1.1x bare httpx loop",
            "ratio export large leadctl/bare httpx",
            1.1,
        ),
    ]
    lines = [
        "## Targets",
        "",
        "| target | measured | spread | met |",
        "|---|---:|---:|---|",
    ]
    for label, name, limit in checks:
        if name not in values:
            continue
        found = results.median(name)
        verdict = "yes" if found <= limit else f"**no**, by {(found / limit - 1) * 100:.0f}%"
        lines.append(f"| {label} | {found:.2f}x | {results.spread(name)} | {verdict} |")
    if "ratio import rate/R" in values:
        found = results.median("ratio import rate/R")
        lost = max(values["import lost"])
        twice = max(values["import duplicated"])
        met = found >= 0.9 and lost == 0 and twice == 0
        verdict = "yes" if met else "**no**"
        lines.append(
            f"| import ≥ 0.9 R, 0 lost, 0 duplicated | {found:.2f} R, {lost:.0f} lost, "
            f"{twice:.0f} duplicated | {results.spread('ratio import rate/R')} | {verdict} |"
        )
    floors = [
        ("batch at a window, Retry-After: ≥ 0.95 N/W", "batch leadctl batch ratio", 0.95),
        ("import at a window, Retry-After: ≥ 0.95 N/W", "window import Retry-After ratio", 0.95),
        ("import at a window, none: ≥ 0.9 N/W", "window import no Retry-After ratio", 0.9),
        ("export at a window, Retry-After: ≥ 0.95 N/W", "window export Retry-After ratio", 0.95),
        ("export at a window, none: ≥ 0.9 N/W", "window export no Retry-After ratio", 0.9),
    ]  # fmt: skip
    for label, name, floor in floors:
        if name not in values:
            continue
        found = results.median(name)
        verdict = "yes" if found >= floor else f"**no**, by {(1 - found / floor) * 100:.0f}%"
        lines.append(f"| {label} | {found:.2f} | {results.spread(name)} | {verdict} |")
    lines.append("")
    return lines


def _paced_tables(results: Any, profile: Any) -> list[str]:
    values = results.values
    lines: list[str] = []
    if "batch lines" in values:
        allowed = results.median("batch limit per second")
        lines += [
            f"## 5. Batch: {profile.batch_lines} GET-one-lead lines at --rate-limit "
            f"{profile.batch_limit} ({allowed:g}/s)",
            "",
            "| way | wall s | answered/s | / N/W | lost | answered twice | exit |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for way in ("leadctl batch", "shell loop", "xargs -P4"):
            if f"batch {way} s" not in values:
                continue
            lines.append(
                f"| {way} | {results.median(f'batch {way} s'):.1f} | "
                f"{results.median(f'batch {way} rate'):.2f} | "
                f"{results.median(f'batch {way} ratio'):.2f} | "
                f"{results.median(f'batch {way} lost'):.0f} | "
                f"{results.median(f'batch {way} duplicated'):.0f} | "
                f"{results.median(f'batch {way} exit'):.0f} |"
            )
        lines.append("")
    if "window limit per second" in values:
        lines += [
            f"## 6. Import and export at --rate-limit {profile.window_limit}",
            "",
            f"Import: {profile.window_import_rows} rows; export: "
            f"{profile.window_export_leads} leads (+240 demo), pageSize 50. The first window's "
            "quota is used at once, so short runs can exceed N/W.",
            "",
            "| measure | Retry-After | no Retry-After |",
            "|---|---:|---:|",
        ]
        for label, key in (
            ("import rows/s ÷ N/W", "window import {} ratio"),
            ("import rows lost", "window import {} lost"),
            ("import rows created twice", "window import {} duplicated"),
            ("export pages/s ÷ N/W", "window export {} ratio"),
            ("export wall s", "window export {} s"),
        ):
            cells = [
                f"{results.median(key.format(variant)):.2f}"
                if key.format(variant) in values
                else "-"
                for variant in ("Retry-After", "no Retry-After")
            ]
            lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
        lines.append("")
    return lines


def _tables(results: Any, profile: Any) -> list[str]:
    values = results.values
    lines: list[str] = []
    if "startup typer ms" in values:
        lines += ["## 1. Start-up", "", "| command | median ms | spread |", "|---|---:|---:|"]
        for name, label in (
            ("typer", '`python -c "import typer"`'),
            ("version", "`leadctl --version`"),
            ("help", "`leadctl --help`"),
            ("import leadctl.cli.app", '`python -c "import leadctl.cli.app"`'),
            ("typer in turns", '`python -c "import typer"`, in turns with `--help`'),
            ("help in turns", "`leadctl --help`, in turns with `import typer`"),
        ):
            lines.append(_row(results, f"startup {name} ms", label))
        lines += [
            "",
            f"`--help` is {results.median('ratio help/typer'):.2f}x `import typer` "
            f"({results.median('ratio help/typer in turns'):.2f}x run in turns, one after the "
            "other, so load that comes and goes falls on both); importing the command tree is "
            f"{results.median('ratio import app/typer'):.2f}x.",
            "",
        ]
    if "read leadctl ms" in values:
        lines += [
            "## 2. One read: the organization's lead statuses",
            "",
            "| command | median ms | spread |",
            "|---|---:|---:|",
        ]
        for name, label in (
            ("leadctl", "`leadctl lead-statuses list -o json`"),
            ("bare httpx", "`python benchmarks/bare_httpx_get.py`"),
            ("httpie", "`http GET …/lead-statuses` (HTTPie)"),
            ("curl | jq", "`curl … | jq .`"),
        ):
            lines.append(_row(results, f"read {name} ms", label))
        lines.append("")
    if any(name.startswith("export ") for name in values):
        lines += [
            "## 3. Export: `leads list --all -o ndjson` (pageSize 200)",
            "",
            "| leads | tool | wall s | spread | peak RSS MiB | spread |",
            "|---:|---|---:|---:|---:|---:|",
        ]
        for size in profile.export_sizes:
            label = _size(size)
            for tool in ("leadctl", "bare httpx", "curl+jq"):
                seconds = f"export {label} {tool} s"
                memory = f"export {label} {tool} MiB"
                if seconds in values:
                    lines.append(
                        f"| {label} (+240 demo) | {tool} | {results.median(seconds):.2f} | "
                        f"{results.spread(seconds)} | {results.median(memory):.1f} | "
                        f"{results.spread(memory)} |"
                    )
        lines.append("")
    if "import rows/s" in values:
        rate = results.median("import limit R")
        lines += [
            f"## 4. Import of {profile.import_rows} rows at R = {rate:.0f} requests/s",
            "",
            "| measure | median | spread |",
            "|---|---:|---:|",
            _row(results, "import rows/s", "rows/s, whole command", digits=1),
            _row(results, "import sending rows/s", "rows/s while sending (leadctl's summary)", 1),
            _row(results, "ratio import rate/R", "whole command / R", digits=3),
            _row(results, "import 429 answers", "429 answers", digits=0),
            _row(results, "import lost", "rows lost", digits=0),
            _row(results, "import duplicated", "rows created twice", digits=0),
            _row(
                results,
                "import unlimited rows/s",
                f"rows/s without a rate limit ({profile.capacity_rows} rows)",
                digits=1,
            ),
            "",
        ]
    return lines


def _row(results: Any, name: str, label: str, digits: int = 1) -> str:
    if name not in results.values:
        return f"| {label} | - | - |"
    return f"| {label} | {results.median(name):.{digits}f} | {results.spread(name)} |"


def _size(size: int) -> str:
    return f"{size // 1000}k" if size >= 1000 else str(size)
