"""How many examples each fuzz test draws: a profile, chosen per run.

``suite`` (the default) keeps the whole suite within its time budget; ``thorough`` is for a
night run or after touching a parser (``uv run pytest tests/fuzz --hypothesis-profile
thorough``). Examples are derandomized, so every run of one profile draws the same ones.
The schemathesis run against the sandbox draws as many per operation.
"""

from __future__ import annotations

from hypothesis import settings

SUITE = "suite"
THOROUGH = "thorough"


def register() -> None:
    settings.register_profile(SUITE, max_examples=60)
    settings.register_profile(THOROUGH, max_examples=500)
    # --hypothesis-profile, read after the conftest files are loaded, overrides this.
    settings.load_profile(SUITE)
