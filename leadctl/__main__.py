"""Entry point for ``python -m leadctl`` and the ``leadctl`` console script."""

from __future__ import annotations

import sys


def main() -> None:
    # `leadctl --version` alone needs no command tree: answered before Typer is imported.
    if sys.argv[1:] == ["--version"]:
        from leadctl import __version__

        sys.stdout.write(f"leadctl {__version__}\n")
        return
    from leadctl.app import run

    run()


if __name__ == "__main__":
    main()
