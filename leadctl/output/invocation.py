"""What the output room reads of the command being run: its streams, the output options
the user gave, the format they add up to, and the active contract (response schemas).

A Protocol, as ``leadctl.contract.invocation``: the room names what it reads and never
imports the invocation's Context, which sits above it. The Context is such an object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from leadctl.contract.invocation import ContractInvocation

if TYPE_CHECKING:
    from leadctl.iostreams import IOStreams
    from leadctl.output.checked_columns import CheckedColumns


class OutputOptions(Protocol):
    """The global options that shape output (cli.md: -o, --columns, --jq, --utc...)."""

    @property
    def output(self) -> str | None: ...

    @property
    def columns(self) -> list[str] | None: ...

    @property
    def jq(self) -> str | None: ...

    @property
    def utc(self) -> bool: ...

    @property
    def allow_formulas(self) -> bool: ...


class OutputInvocation(ContractInvocation, Protocol):
    """A command as its output sees it."""

    @property
    def ios(self) -> IOStreams: ...

    @property
    def options(self) -> OutputOptions: ...

    @property
    def output_format(self) -> str: ...

    # --columns as the response schema confirmed it, kept for the invocation
    # (leadctl.output.response_columns writes it, the renderers read it).
    columns_checked: CheckedColumns | None

    def settings_output_or_none(self) -> str | None: ...
