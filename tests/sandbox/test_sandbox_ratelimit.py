"""--rate-limit N: per credential per second, 429 with an integer Retry-After."""

from __future__ import annotations

import time

from tests.support.sandbox_server import SandboxProcess, sandbox_server


def test_rate_limit_is_per_credential_with_integer_retry_after() -> None:
    with sandbox_server(rate_limit=3) as sandbox, sandbox.client() as api:
        statuses = [api.get("/lead-statuses") for _ in range(8)]
        limited = [r for r in statuses if r.status_code == 429]
        assert limited, [r.status_code for r in statuses]
        assert statuses[0].status_code == 200
        response = limited[0]
        assert response.headers["content-type"] == "application/problem+json"
        retry_after = response.headers["retry-after"]
        assert retry_after.isdigit() and int(retry_after) >= 1
        with sandbox.client(sandbox.credentials.user) as other:
            assert other.get("/lead-statuses").status_code == 200  # its own budget
        time.sleep(int(retry_after))
        assert api.get("/lead-statuses").status_code == 200


def test_no_rate_limit_by_default(sandbox: SandboxProcess) -> None:
    with sandbox.client() as api:
        assert {api.get("/lead-statuses").status_code for _ in range(40)} == {200}
