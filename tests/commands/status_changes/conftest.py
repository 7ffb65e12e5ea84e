"""Fixtures of the ``status-changes`` tests."""

from __future__ import annotations

import pytest

from tests.commands.status_changes.e2e_support import LeadWithHistory, new_lead
from tests.support.sandbox_server import SandboxProcess


@pytest.fixture
def lead(sandbox: SandboxProcess) -> LeadWithHistory:
    """A new lead on the session sandbox, once intake accepted it and gave it its first
    status change."""
    return new_lead(sandbox)
