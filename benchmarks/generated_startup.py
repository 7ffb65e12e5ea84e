"""Start-up cost of a generated command against a curated one, measured with hyperfine.

    uv run python benchmarks/generated_startup.py [--runs 40] [--check]

Compares ``leadctl --dry-run tags list`` (generated from the sandbox's published contract,
imported for the default profile) with ``leadctl --dry-run lead-statuses list`` (curated),
and ``leadctl --help`` (which lists generated groups from the index). --dry-run prints the
request and sends nothing, so only start-up, the index and the client are timed; no server
is needed. (--dry-run is a global option: it goes before the group.)

Bytecode is compiled first and PYTHONDONTWRITEBYTECODE is removed from the timed runs, as
an installed leadctl runs. --check exits 1 when the generated command costs more than
20 ms over the curated one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

BUDGET_MS = 20.0
ROOT = Path(__file__).resolve().parent.parent


def leadctl() -> str:
    script = Path(sys.executable).with_name("leadctl")
    if not script.exists():
        raise SystemExit("leadctl is not installed in this environment (run `uv sync`)")
    return str(script)


def compile_bytecode() -> None:
    targets = [sysconfig.get_paths()["purelib"], str(ROOT / "leadctl")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *targets], check=False)


def environment(work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADCTL_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        LEADCTL_CACHE_DIR=str(work / "cache"),
        LEADCTL_CONFIG_DIR=str(work / "config"),
        LEADCTL_DATA_DIR=str(work / "data"),
        LEADCTL_BASE_URL="https://api.example.test",
        LEADCTL_TOKEN="sk_bench_0123456789abcdef0123",
    )
    return env


def import_sandbox_contract(work: Path, env: dict[str, str]) -> None:
    from leadctl_sandbox.published import published_bytes

    contract = work / "published.json"
    contract.write_bytes(published_bytes())
    subprocess.run(
        [leadctl(), "-q", "contract", "import", str(contract)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--check", action="store_true", help=f"fail over {BUDGET_MS:g} ms")
    args = parser.parse_args()
    if shutil.which("hyperfine") is None:
        raise SystemExit("hyperfine is not installed (apt-get install hyperfine)")
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="leadctl-startup-") as tmp:
        work = Path(tmp)
        env = environment(work)
        import_sandbox_contract(work, env)
        commands = {
            "generated": f"{leadctl()} --dry-run tags list",
            "curated": f"{leadctl()} --dry-run lead-statuses list",
            "help": f"{leadctl()} --help",
        }
        report = work / "hyperfine.json"
        subprocess.run(
            ["hyperfine", "-N", "--warmup", "5", "--runs", str(args.runs), "--style", "none"]
            + ["--export-json", str(report)]
            + [arg for name, cmd in commands.items() for arg in ("-n", name, cmd)],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        results = {r["command"]: r for r in json.loads(report.read_text())["results"]}
    for name, r in results.items():
        mean, stddev, median, low = (r[k] * 1000 for k in ("mean", "stddev", "median", "min"))
        print(
            f"{name:>9}: mean {mean:6.1f} ± {stddev:4.1f} ms, median {median:6.1f} ms, "
            f"min {low:6.1f} ms  ({commands[name].split('/')[-1]})"
        )
    # The median: on a shared machine the mean carries other processes' noise.
    extra = (results["generated"]["median"] - results["curated"]["median"]) * 1000
    print(f"generated command start-up: {extra:+.1f} ms against the curated one (budget 20 ms)")
    return 1 if args.check and extra > BUDGET_MS else 0


if __name__ == "__main__":
    sys.exit(main())
