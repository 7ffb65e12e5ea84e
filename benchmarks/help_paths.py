"""Start-up of every help path a person walks, on a home with several profiles and stored
contracts, against ``python -c "import typer"``, in shuffled turns.

    uv run python benchmarks/help_paths.py [--rounds 25] [--twice] [--against DIR]

The home: eight profiles, three with an imported contract (the traits fixture, 138
operations; the payments style at 125 and at 3,000 operations), the current profile one
without. Timed, every round in a new random order (support.shuffled_turns), each row the
ratio of medians:

- ``leadctl --help`` (current profile, and ``-p traits`` with its stored contract);
- a group's help (``leads --help``), a curated verb's (``leads list --help``) and a
  generated verb's on the 138-operation contract (``tags list --help``);
- a generated group's help and a generated ``--dry-run`` on the 3,000-operation contract
  against the same command on the 125-operation one (what a big contract adds).
``--against`` builds the same home for the other checkout with that checkout.

Each help row is timed three ways (leadctl/cli/help_cache.py): warm (the page answered from
the help cache, as every run after the first), cold (the first run after a change: its
cached page removed before each run, so the run renders it and stores it again) and
uncached (LEADCTL_HELP_CACHE=0: what Typer costs, the figure before the cache). The cold
rows run on a copy of the home's cache dir (its contracts), whose help pages are removed
before each of their runs; the warm rows' pages are never touched.

Targets are issue 32's. ``--against DIR`` times another checkout (DIR holds its ``leadctl``
package, e.g. ``git worktree add DIR REV``) in the same turns, on the same home, each
through the console script's two lines (run in a scratch directory: ``python -c`` imports
from its working directory first), so before and after see the same load. Bytecode is
compiled first, as an installed leadctl runs.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import support

ROUNDS = 25
COLD = " [cold]"
UNCACHED = " [uncached]"
LAUNCH = "import sys; from leadctl.__main__ import main; sys.exit(main())"

# (name, argv after `leadctl`, what it is measured against, target ratio)
ROWS: list[tuple[str, list[str], str, float]] = [
    ("root help", ["--help"], "typer", 1.05),
    ("root help, stored contract", ["-p", "traits", "--help"], "typer", 1.05),
    ("group help", ["leads", "--help"], "typer", 1.15),
    ("group help, stored contract", ["-p", "traits", "leads", "--help"], "typer", 1.15),
    ("curated verb help", ["leads", "list", "--help"], "typer", 1.2),
    ("generated verb help (138 ops)", ["-p", "traits", "tags", "list", "--help"], "typer", 1.2),
    ("group help 3,000 ops", ["-p", "big", "accounts-250", "--help"], "small group", 1.1),
    ("small group", ["-p", "small", "accounts-7", "--help"], "", 0.0),
    ("dry-run 3,000 ops", ["-p", "big", "--dry-run", "accounts-250", "get"], "small dry-run", 1.1),
    ("small dry-run", ["-p", "small", "--dry-run", "accounts-7", "get"], "", 0.0),
]


def build_home(env: Mapping[str, str], work: Path, launcher: Sequence[str], cwd: Path) -> None:
    """Eight profiles; traits, small and big with an imported contract, imported by the
    leadctl that is timed on this home (each version keeps its own index format)."""
    sys.path.insert(0, str(support.ROOT))
    from tests.contract_fixture.test_third_party_contracts import big_contract

    def leadctl(*argv: str) -> None:
        subprocess.run(
            [*launcher, "-q", *argv], env=dict(env), check=True, stdout=subprocess.DEVNULL, cwd=cwd
        )

    for number in range(1, 6):
        leadctl("-p", f"team{number}", "profile", "set", "base_url", f"https://team{number}.test")
    leadctl("-p", "default", "profile", "set", "base_url", "https://api.example.test")
    leadctl("profile", "use", "default")
    contracts = {
        "traits": support.ROOT / "tests/fixtures/contracts/traits-3.1.json",
        "small": work / "small.json",
        "big": work / "big.json",
    }
    contracts["small"].write_text(json.dumps(big_contract("3.0", resources=25)))
    contracts["big"].write_text(json.dumps(big_contract("3.0", resources=600)))
    for profile, path in contracts.items():
        leadctl("-p", profile, "profile", "set", "base_url", f"https://{profile}.example.test")
        leadctl("-p", profile, "contract", "import", str(path))


def commands(
    env: Mapping[str, str],
    against: Path | None,
    against_env: Mapping[str, str],
    cold_env: Mapping[str, str],
) -> dict[str, tuple[Sequence[str], Mapping[str, str]]]:
    found: dict[str, tuple[Sequence[str], Mapping[str, str]]] = {
        "typer": ([support.PYTHON, "-c", "import typer"], env)
    }
    if against is not None:
        _check_imports_from(against, against_env)
    for name, argv, _, _ in ROWS:
        found[name] = ([support.LEADCTL, *argv], env)
        if is_help(argv):
            found[name + COLD] = ([support.LEADCTL, *argv], cold_env)
            uncached = {**env, "LEADCTL_HELP_CACHE": "0"}
            found[name + UNCACHED] = ([support.LEADCTL, *argv], uncached)
        if against is not None:
            found[f"{name} [against]"] = (
                [support.PYTHON, "-c", LAUNCH, *argv],
                against_env,
            )
    return found


def is_help(argv: Sequence[str]) -> bool:
    return argv[-1] == "--help"


def cold_home(env: Mapping[str, str], scratch: Path) -> tuple[dict[str, str], Callable[[], None]]:
    """The cold rows' environment: a copy of the home's cache dir (the stored contracts,
    the profiles' keys), and what removes its help pages before each of their runs."""
    cache = scratch / "cold-cache"
    shutil.copytree(env["LEADCTL_CACHE_DIR"], cache)
    return {**env, "LEADCTL_CACHE_DIR": str(cache)}, functools.partial(
        shutil.rmtree, cache / "help", ignore_errors=True
    )


def _check_imports_from(against: Path, env: Mapping[str, str]) -> None:
    """The other checkout's leadctl is the one its runs import, not this one's."""
    where = subprocess.run(
        [support.PYTHON, "-c", "import leadctl; print(leadctl.__file__)"],
        env=dict(env),
        cwd=against,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(against.resolve()):
        raise SystemExit(f"--against {against}: its runs would import {where}")


def report(found: Mapping[str, float], against: Path | None) -> None:
    print(f"import typer {found['typer'] * 1000:.1f} ms; load {support.load()}")
    for name, argv, base, target in ROWS:
        if not base:
            continue
        ratio = found[name] / found[base]
        line = f"{name}: {found[name] * 1000:.1f} ms, {ratio:.2f}x {base}"
        if is_help(argv):
            line = f"{name}: warm {found[name] * 1000:.1f} ms, {ratio:.2f}x {base}"
            cold, uncached = found[name + COLD], found[name + UNCACHED]
            # the big contract's rows compare like with like: cold with cold, and so on
            cold_base = found.get(base + COLD, found[base])
            uncached_base = found.get(base + UNCACHED, found[base])
            line += f"; cold {cold * 1000:.1f} ms, {cold / cold_base:.2f}x"
            line += f"; uncached {uncached * 1000:.1f} ms, {uncached / uncached_base:.2f}x"
        if against is not None:
            before = found[f"{name} [against]"] / found[base]
            if base != "typer":
                before = found[f"{name} [against]"] / found[f"{base} [against]"]
            line += f" (against: {before:.2f}x)"
        verdict = "yes" if ratio <= target else "no"
        print(f"  {line}; target <= {target}x: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--twice", action="store_true", help="measure the whole run twice")
    parser.add_argument("--against", type=Path, help="another checkout, timed in the same turns")
    args = parser.parse_args()
    support.compile_bytecode()
    if args.against is not None:
        compileall.compile_dir(str(args.against / "leadctl"), quiet=1, workers=0)
    with tempfile.TemporaryDirectory(prefix="leadctl-help-paths-") as scratch:
        for home in ("home", "against-home"):
            (Path(scratch) / home).mkdir()
        env = support.child_env(Path(scratch) / "home")
        build_home(env, Path(scratch), [support.LEADCTL], Path(scratch))
        against_env: dict[str, str] = {}
        if args.against is not None:
            against_env = {
                **support.child_env(Path(scratch) / "against-home"),
                "PYTHONPATH": str(args.against),
            }
            launcher = [support.PYTHON, "-c", LAUNCH]
            build_home(against_env, Path(scratch), launcher, args.against)
        cold_env, forget = cold_home(env, Path(scratch))
        timed = commands(env, args.against, against_env, cold_env)
        cold = {name: forget for name in timed if name.endswith(COLD)}
        for _ in range(2 if args.twice else 1):
            report(
                support.shuffled_turns(
                    timed,
                    rounds=args.rounds,
                    warmup=args.warmup,
                    cwd=args.against or Path(scratch),
                    before=cold,
                ),
                args.against,
            )


if __name__ == "__main__":
    main()
