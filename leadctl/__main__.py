"""Entry point for ``python -m leadctl`` and the ``leadctl`` console script."""

from __future__ import annotations

import sys

from leadctl import __version__

TYPE_CHECKING = False  # typing and types cost a --version or a cached help more than it
if TYPE_CHECKING:
    from types import ModuleType


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
    from leadctl.cli import help_cache  # os and sys only: no cost for the other lines

    if help_cache.asks_for_help(sys.argv[1:]):
        # A help page seen before is answered from the cache, before Typer is imported.
        _help(help_cache, sys.argv[1:])
        return
    _run()


def _help(help_cache: ModuleType, args: list[str]) -> None:
    import os

    env = os.environ
    key = None if help_cache.bypassed(env) else help_cache.help_key(args, env, sys.stdout)
    page = help_cache.lookup(key, env) if key is not None else None
    if page is not None and sys.stdout is not None:
        try:
            help_cache.answer(page, sys.stdout)
            return
        except BrokenPipeError:
            pass  # the reader left: the line runs as uncached, with that exit and message
    if key is None:
        _run()
        return
    capture = help_cache.Capture(sys.stdout, sys.stderr)
    try:
        code = _invoke()
    finally:
        capture.stop()
    page = capture.page()
    # A run that changed what the key stamps (the sandbox's contract stored on first
    # use) is not kept: its page is not known to be the next run's.
    if code == 0 and page is not None and help_cache.help_key(args, env, sys.stdout) == key:
        help_cache.store(key, env, page)
    sys.exit(code)


def _invoke() -> int:
    import gc

    # Start-up creates thousands of objects that live as long as the process (Typer, the
    # command tree); cyclic collections over them are wasted work, about 3 ms of a 50 ms
    # `leadctl --help`. The root callback turns collection back on (resume_collection)
    # once a command is about to run.
    gc.disable()
    from leadctl.cli.app import invoke

    return invoke()


def _run() -> None:
    sys.exit(_invoke())


if __name__ == "__main__":
    main()
