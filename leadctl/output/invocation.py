"""What the output room reads of the command being run: its streams, the output options
the user gave, the format they add up to, and the active contract (response schemas).

A Protocol, as ``leadctl.contract.invocation``: the room names what it reads and never
imports the invocation's Context, which sits above it. The Context is such an object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from leadctl.contract.invocation import ContractInvocation

if TYPE_CHECKING:
    from leadctl.global_options import GlobalOptions
    from leadctl.iostreams import IOStreams
    from leadctl.output.checked_columns import CheckedColumns


class OutputInvocation(ContractInvocation, Protocol):
    """A command as its output sees it."""

    @property
    def ios(self) -> IOStreams: ...

    @property
    def options(self) -> GlobalOptions: ...

    @property
    def output_format(self) -> str: ...

    # --columns as the response schema confirmed it, kept for the invocation
    # (leadctl.output.response_columns writes it, the renderers read it).
    columns_checked: CheckedColumns | None

    def settings_output_or_none(self) -> str | None: ...
