"""The bulk engine's modules: all of ``leadctl/bulk/`` but what a command loads with its group.

``leadctl.bulk.options`` (what ``leads import`` and ``batch`` are asked to do) is light and
loads with the ``leads`` and ``batch`` groups; the rest runs an import or a batch and must not
load for a read or a group's help.
"""

from __future__ import annotations

from pathlib import Path

import leadctl.bulk

LOADED_WITH_A_GROUP = ("__init__", "options")

BULK_ENGINE = tuple(
    sorted(
        f"leadctl.bulk.{path.stem}"
        for path in Path(leadctl.bulk.__file__).parent.glob("*.py")
        if path.stem not in LOADED_WITH_A_GROUP
    )
)
