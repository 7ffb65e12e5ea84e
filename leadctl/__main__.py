"""Entry point for ``python -m leadctl`` and the ``leadctl`` console script."""

from __future__ import annotations


def main() -> None:
    from leadctl.app import run

    run()


if __name__ == "__main__":
    main()
