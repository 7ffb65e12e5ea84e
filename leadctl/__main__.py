"""Entry point for ``python -m leadctl`` and the ``leadctl`` console script."""

from __future__ import annotations

import sys

from leadctl import __version__


def main() -> None:
    # `leadctl --version` alone needs no command tree: answered before Typer is imported.
    if sys.argv[1:] == ["--version"] and sys.stdout is not None:
        sys.stdout.write(f"leadctl {__version__}\n")
        return
    if sys.argv[1:2] == ["__complete-values"]:
        # TAB in a shell: answered without the command tree (cli/value_completion.py).
        from leadctl.cli.value_completion import main as complete_values

        complete_values(sys.argv[2:])
        return
    import gc

    # Start-up creates thousands of objects that live as long as the process (Typer, the
    # command tree); cyclic collections over them are wasted work, about 3 ms of a 50 ms
    # `leadctl --help`. The root callback turns collection back on (resume_collection)
    # once a command is about to run.
    gc.disable()
    from leadctl.cli.app import run

    run()


if __name__ == "__main__":
    main()
