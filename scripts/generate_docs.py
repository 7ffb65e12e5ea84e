"""Regenerate completions/ and man/ from leadctl's command tree.

uv run python scripts/generate_docs.py           # write what changed
uv run python scripts/generate_docs.py --check   # exit 1 when a checked-in file is stale
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from leadctl.docgen.artifacts import generated_files, stale_files

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if any file is stale"
    )
    args = parser.parse_args(argv)
    files = generated_files(ROOT, today=date.today().isoformat())
    stale, leftover = stale_files(ROOT, files)
    if args.check:
        for path in stale:
            print(f"stale: {path}", file=sys.stderr)
        for path in leftover:
            print(f"no longer generated: {path}", file=sys.stderr)
        if stale or leftover:
            print("run `uv run python scripts/generate_docs.py` and commit", file=sys.stderr)
            return 1
        return 0
    for path in stale:
        target = ROOT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(files[path], encoding="utf-8", newline="\n")
        print(f"wrote {path}")
    for path in leftover:
        (ROOT / path).unlink()
        print(f"removed {path}")
    if not stale and not leftover:
        print("completions/ and man/ are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
