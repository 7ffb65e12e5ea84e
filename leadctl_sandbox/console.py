"""Where ``sandbox serve`` writes: any object with these members (leadctl's IOStreams is one)."""

from __future__ import annotations

from typing import Protocol, TextIO


class Console(Protocol):
    @property
    def stdout(self) -> TextIO: ...

    def info(self, message: str) -> None: ...

    def warn(self, message: str) -> None: ...
