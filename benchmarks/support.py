"""What the benchmarks share: the children's environment, a sandbox server, measuring a
child's wall time and peak memory, hyperfine, and a description of the machine."""

from __future__ import annotations

import compileall
import json
import os
import platform
import random
import selectors
import signal
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
BIN = Path(sys.executable).parent
PYTHON = sys.executable
LEADCTL = str(BIN / "leadctl")
GNU_TIME = "/usr/bin/time" if Path("/usr/bin/time").exists() else None


def compile_bytecode() -> None:
    """Compile leadctl, the benchmarks and the environment's packages to .pyc files.

    The development environment sets PYTHONDONTWRITEBYTECODE=1, so without this every
    start-up would compile every module it imports: several times the real cost.
    """
    paths = [ROOT / "leadctl", BENCH, Path(sysconfig.get_paths()["purelib"])]
    for path in paths:
        compileall.compile_dir(str(path), quiet=1, workers=0)


def child_env(workdir: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of every timed child: bytecode caching allowed, no LEADCTL_*
    settings of the caller, config and data in a scratch dir, this venv's tools first."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("LEADCTL_") and k not in ("PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV")
    }
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["LEADCTL_CONFIG_DIR"] = str(workdir / "config")
    env["LEADCTL_DATA_DIR"] = str(workdir / "data")
    # Contracts pulled from a sandbox (the batch suite's `leads get`) stay in the scratch dir.
    env["LEADCTL_CACHE_DIR"] = str(workdir / "cache")
    env["HTTPIE_CONFIG_DIR"] = str(workdir / "httpie")
    (workdir / "httpie").mkdir(exist_ok=True)
    # HTTPie otherwise checks for a newer version of itself now and then.
    (workdir / "httpie" / "config.json").write_text('{"disable_update_warnings": true}')
    env.update(extra or {})
    return env


def write_import_rows(path: Path, marker: str, rows: int) -> None:
    """NDJSON leads for `leads import`, each with a unique e-mail under ``marker``."""
    with path.open("w") as out:
        for n in range(rows):
            lead = {
                "firstName": "Bench",
                "lastName": f"Row {n}",
                "email": f"{marker}-{n}@import.example",
                "phone": f"+1512555{n % 10000:04d}",
                "state": "TX",
                "product": "solar",
            }
            out.write(json.dumps(lead) + "\n")


# -- a sandbox server ----------------------------------------------------------------------


@dataclass
class Sandbox:
    base_url: str
    org_key: str
    user_token: str
    process: subprocess.Popen[bytes]

    def env(self, base: Mapping[str, str], credential: str | None = None) -> dict[str, str]:
        return {
            **base,
            "LEADCTL_BASE_URL": self.base_url,
            "LEADCTL_TOKEN": credential or self.org_key,
        }


@contextmanager
def sandbox(env: Mapping[str, str], *args: str) -> Iterator[Sandbox]:
    """``leadctl sandbox serve --memory`` on a free port, stopped with SIGTERM afterwards."""
    argv = [LEADCTL, "sandbox", "serve", "--memory", "--port", "0", "--seed", "1"]
    with serving([*argv, "--print-json", *args], env) as (process, ready):
        credentials = ready["credentials"]
        yield Sandbox(ready["baseUrl"], credentials["org"], credentials["user"], process)


@contextmanager
def serving(
    argv: Sequence[str], env: Mapping[str, str]
) -> Iterator[tuple[subprocess.Popen[bytes], dict[str, Any]]]:
    """A server process and the JSON line it prints once ready (its ``baseUrl``...),
    stopped with SIGTERM afterwards."""
    process = subprocess.Popen(
        list(argv),
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    try:
        yield process, _ready_line(process, timeout=120)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout is not None:
            process.stdout.close()


def _ready_line(process: subprocess.Popen[bytes], *, timeout: float) -> dict[str, Any]:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while b"\n" not in buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the sandbox did not start")
            if selector.select(1.0):
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError(f"the sandbox exited with {process.wait()}")
                buffer += chunk
    ready: dict[str, Any] = json.loads(buffer.split(b"\n", 1)[0])
    return ready


# -- measuring -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    seconds: float
    max_rss_mib: float
    exit_code: int
    stderr: str


def measure(
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    stdout: Any = subprocess.DEVNULL,
    stdin: Any = subprocess.DEVNULL,
) -> Run:
    """Wall time and peak RSS of one child (with a shell pipeline: its largest process).

    The peak comes from GNU time (``/usr/bin/time``), whose own few MiB are the floor. A
    child forked straight from this Python process would report at least this process's
    RSS instead: Linux keeps the high-water mark from before ``exec``.
    """
    with tempfile.TemporaryDirectory() as scratch:
        peak_file = Path(scratch) / "peak"
        wrapped = [GNU_TIME, "-f", "%M", "-o", str(peak_file), *argv] if GNU_TIME else argv
        with (Path(scratch) / "stderr").open("w+b") as err:
            started = time.perf_counter()
            process = subprocess.Popen(
                wrapped, env=dict(env), stdout=stdout, stderr=err, stdin=stdin
            )
            _pid, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        peak_kib = float(usage.ru_maxrss)
        if GNU_TIME:
            peak_kib = float(peak_file.read_text().strip().splitlines()[-1])
    return Run(seconds, peak_kib / 1024, process.returncode, text)


def hyperfine(
    commands: Mapping[str, str], env: Mapping[str, str], *, runs: int, warmup: int, out: Path
) -> dict[str, float]:
    """Median seconds per named command, measured by ``hyperfine -N`` (no shell)."""
    argv = [
        "hyperfine", "-N", "--warmup", str(warmup), "--runs", str(runs), "--style", "none",
        "--export-json", str(out),
    ]  # fmt: skip
    for name, command in commands.items():
        argv += ["--command-name", name, command]
    subprocess.run(argv, env=dict(env), check=True, stdout=subprocess.DEVNULL)
    results = json.loads(out.read_text())["results"]
    return {result["command"]: float(result["median"]) for result in results}


def alternating(
    commands: Mapping[str, Sequence[str]], env: Mapping[str, str], *, rounds: int, warmup: int
) -> dict[str, float]:
    """Median seconds per named command, the commands run in turn, round after round.

    hyperfine runs all of one command's runs before the next command's, so load that comes
    and goes on a shared machine can fall on one of them only; taken in turns, it falls on
    both alike, and their ratio holds where their absolute times do not.
    """
    times: dict[str, list[float]] = {name: [] for name in commands}
    for turn in range(warmup + rounds):
        for name, argv in commands.items():
            started = time.perf_counter()
            subprocess.run(
                list(argv), env=dict(env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                check=True,
            )  # fmt: skip
            if turn >= warmup:
                times[name].append(time.perf_counter() - started)
    return {name: median(values) for name, values in times.items()}


def shuffled_turns(
    commands: Mapping[str, tuple[Sequence[str], Mapping[str, str]]],
    *,
    rounds: int,
    warmup: int,
    cwd: Path | None = None,
    before: Mapping[str, Callable[[], None]] | None = None,
) -> dict[str, float]:
    """Median seconds per named ``(argv, env)``, every command once per round, each round in
    a new random order: load that comes and goes on a shared machine falls on all alike,
    and no command always runs right after another (whose page cache it would inherit).
    ``cwd``: where the children run (``python -c`` imports from there first); ``before``:
    what to do, untimed, before each run of a command (remove its cached help page)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for turn in range(warmup + rounds):
        random.shuffle(names)
        for name in names:
            argv, env = commands[name]
            if before is not None and name in before:
                before[name]()
            started = time.perf_counter()
            subprocess.run(
                list(argv), env=dict(env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                check=True, cwd=cwd,
            )  # fmt: skip
            if turn >= warmup:
                times[name].append(time.perf_counter() - started)
    return {name: median(values) for name, values in times.items()}


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


# -- the machine ---------------------------------------------------------------------------


def machine() -> dict[str, str]:
    cpu = "unknown"
    memory = "unknown"
    with suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "nproc": str(os.cpu_count()),
        "cpu": cpu,
        "memory": memory,
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
        "hyperfine": _version(["hyperfine", "--version"]),
        "curl": _version(["curl", "--version"]),
        "jq": _version(["jq", "--version"]),
        "httpie": _version([str(BIN / "http"), "--version"]),
    }


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def _version(argv: list[str]) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=30)
    except OSError:
        return "missing"
    first = (out.stdout or out.stderr).strip().splitlines()
    return first[0] if first else "unknown"
