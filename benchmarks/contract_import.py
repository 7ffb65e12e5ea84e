"""Wall and CPU time of `leadctl contract import`, most of it checking the contract.

    uv run python benchmarks/contract_import.py [--runs 5] [--against DIR]

Imports the ASP.NET fixture (125 operations, OpenAPI 3.1), the 1,500-operation contract
of tests/contract_fixture/test_third_party_contracts.py (3.0 and 3.1) and a contract of
Cloudflare's public one's shape (benchmarks/cloudflare_like.py: 1,521 operations, 3,736
components, 2,700 defaults, a few wrong; generated here, not stored) into a scratch
profile, each --runs times under GNU time (`/usr/bin/time -f "%e %U %S"`), and prints the
median wall and CPU (user+system) seconds of each, with how many operations were kept and
left out and how many defaults were warned about. Bytecode is compiled first and
PYTHONDONTWRITEBYTECODE is removed from the timed runs, as an installed leadctl runs.

--against DIR times another leadctl (DIR holds its ``leadctl`` package, e.g. from
``git archive REV leadctl | tar -x -C DIR``) in turns with this one, run for run, so both
see the same load on a shared machine.
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.cloudflare_like import OPERATIONS, cloudflare_like
from benchmarks.support import GNU_TIME, LEADCTL, ROOT, child_env, compile_bytecode


def contracts(work: Path) -> dict[str, Path]:
    from tests.contract_fixture.test_third_party_contracts import RESOURCES, big_contract

    found = {"aspnet-3.1 (125 ops)": ROOT / "tests/fixtures/contracts/aspnet-3.1.json"}
    for version in ("3.0", "3.1"):
        path = work / f"big-{version}.json"
        path.write_text(json.dumps(big_contract(version)), encoding="utf-8")
        found[f"big-{version} ({5 * RESOURCES} ops)"] = path
    path = work / "cloudflare-like.json"
    path.write_text(json.dumps(cloudflare_like()), encoding="utf-8")
    found[f"cloudflare-like ({OPERATIONS} ops)"] = path
    return found


def timed_import(contract: Path, env: dict[str, str], work: Path) -> tuple[float, float, str]:
    """(wall, user+system) seconds of one import, as GNU time reports them, and what it
    kept (operations kept, left out, defaults warned about)."""
    report = work / "time.txt"
    report.unlink(missing_ok=True)
    argv = [GNU_TIME or "", "-f", "%e %U %S", "-o", str(report)]
    # A generous limit: the code before issue 32 took minutes on the Cloudflare-like one.
    command = [LEADCTL, "-q", "contract", "import", str(contract), "-o", "json"]
    ran = subprocess.run(
        [*argv, *command, "--time-limit", "900"],
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    wall, user, system = (float(part) for part in report.read_text().split()[-3:])
    summary = json.loads(ran.stdout)
    kept = (
        f"{summary['operations']} kept, {len(summary['leftOut'])} left out, "
        f"{len(summary.get('warnings', []))} default warnings"
    )
    return wall, user + system, kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another leadctl tree, timed in turns")
    args = parser.parse_args()
    if GNU_TIME is None:
        raise SystemExit("GNU time is not installed (apt-get install time)")
    compile_bytecode()
    with tempfile.TemporaryDirectory(prefix="leadctl-contract-import-") as tmp:
        work = Path(tmp)
        for side in ("this", "other"):
            (work / side).mkdir()
        sides = {"this": child_env(work / "this", {"LEADCTL_BASE_URL": "http://127.0.0.1:9"})}
        if args.against is not None:
            compileall.compile_dir(str(args.against / "leadctl"), quiet=1, workers=0)
            other = child_env(work / "other", {"LEADCTL_BASE_URL": "http://127.0.0.1:9"})
            sides["other"] = {**other, "PYTHONPATH": str(args.against.resolve())}
        for name, contract in contracts(work).items():
            runs: dict[str, list[tuple[float, float, str]]] = {side: [] for side in sides}
            for _ in range(args.runs):
                for side, env in sides.items():
                    runs[side].append(timed_import(contract, env, work))
            for side, taken in runs.items():
                wall = statistics.median(run[0] for run in taken)
                cpu = statistics.median(run[1] for run in taken)
                print(
                    f"{name:>25} {side:>5}: wall {wall:6.2f} s, CPU {cpu:6.2f} s "
                    f"(medians of {args.runs}; {taken[-1][2]})"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
