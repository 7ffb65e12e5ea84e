"""What ``leads import`` and ``batch`` are asked to do, without the engine that does it.

Light on purpose (dataclasses only): the command modules build these when their group loads
(``leads list`` too), and the engine (:mod:`leadctl.bulk.runner`, :mod:`leadctl.bulk.batch`)
loads only when one of them runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from leadctl.contract.catalogue import OperationCatalogue

STDIN = "-"  # as a file name: read stdin (or, as a report, write stdout)
DEFAULT_CONCURRENCY = 4


@dataclass(frozen=True)
class ImportOptions:
    file: str
    fmt: str | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    report: str | None = None
    resume: str | None = None
    retry_unknown: bool = False
    maps: tuple[str, ...] = ()  # --map COLUMN=PATH
    fields: tuple[str, ...] = ()  # --field PATH=VALUE, for every row that has none
    rate: str | None = None  # --rate N/WINDOW, as typed (None: the profile's rate_limit)


@dataclass(frozen=True)
class BatchOptions:
    operation: str  # as typed: `group verb`, an operationId or 'METHOD /path'
    # The active contract's operations, which OPERATION is looked up in.
    tree: OperationCatalogue = field(repr=False, compare=False)
    input: str = STDIN
    report: str | None = None  # None: stdout, unless --resume names the report
    resume: str | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    retry_unknown: bool = False
    rate: str | None = None  # --rate N/WINDOW, as typed (None: the profile's rate_limit)
    yes: bool = False  # --yes: a destructive operation may be sent for every line
