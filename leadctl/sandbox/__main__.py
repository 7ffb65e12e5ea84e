"""``python -m leadctl.sandbox serve|reset``: the sandbox commands without the root app.

Test harnesses use it with ``serve --print-json``; it runs the same Typer group as
``leadctl sandbox``.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    import typer

    from leadctl.commands.sandbox import app
    from leadctl.context import Context
    from leadctl.errors import ExitCode, LeadctlError
    from leadctl.iostreams import IOStreams

    ios = IOStreams.system()
    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else argv
    try:
        result = command.main(
            args=args,
            prog_name="python -m leadctl.sandbox",
            standalone_mode=False,
            obj=Context(ios=ios),
        )
    except LeadctlError as error:
        ios.stderr.write(f"error: {error.message}\n")
        for line in error.detail_lines():
            ios.stderr.write(f"{line}\n")
        return int(error.exit_code)
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    except Exception as error:
        # Typer vendors Click; its usage errors are recognised by their public shape.
        show = getattr(error, "show", None)
        if callable(show) and isinstance(getattr(error, "exit_code", None), int):
            show()
            return int(error.exit_code)  # type: ignore[attr-defined]
        raise
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
