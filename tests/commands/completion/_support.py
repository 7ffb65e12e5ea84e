"""What the tests of ``completion`` share."""

from __future__ import annotations

from pathlib import Path

COMPLETIONS = Path(__file__).resolve().parents[3] / "completions"
