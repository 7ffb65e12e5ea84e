"""Issue 21.6: batch lines name body fields by the path resolution every command uses: a
field the schema does not list (nested ones included) makes the line invalid, with the
closest names, and nothing of it is sent; the other lines go on."""

from __future__ import annotations

import json
from typing import Any

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, VirtualClock, run_cli, token_env

URL = f"{BASE_URL}/leads"


def test_a_line_naming_a_field_the_lead_does_not_have_is_invalid(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "l1"})
    stdin = (
        json.dumps({"firstName": "Ada", "phone": "+15125550143"})
        + "\n"
        + json.dumps({"frstName": "Grace", "phone": "+15125550144"})
        + "\n"
    )

    result = run_cli(
        ["batch", "leads create", "--concurrency", "1"],
        env=token_env(),
        stdin=stdin,
        clock=VirtualClock(),
    )

    assert result.exit_code == 6, result.stderr
    rows: dict[int, Any] = {r["row"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert rows[2]["outcome"] == "invalid"
    assert rows[2]["error"]["detail"] == (
        "'frstName' is not a field of the operation's body (did you mean firstName?)"
    )
    [sent] = httpx_mock.get_requests()
    assert json.loads(sent.content)["firstName"] == "Ada"
