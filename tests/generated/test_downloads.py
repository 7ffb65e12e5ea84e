"""Issue 21.7: a read whose answer is bytes. A redirect is followed (the credential only to
the service's own origin), text reaches a terminal made safe, binary never does, and a
redirect that cannot be followed is an error rather than exit 0 with nothing written."""

from __future__ import annotations

import pytest
from pytest_httpx import HTTPXMock

from tests.generated.contracts import widgets, write
from tests.support.cli import BASE_URL, ORG_KEY, Result, run_cli, token_env

STORAGE = "https://storage.example.test/exports/w1.zip?X-Signature=secret-signature"
READ = ["widgets", "get", "w1"]


@pytest.fixture(autouse=True)
def imported(tmp_path: object) -> Result:
    from pathlib import Path

    path = write(Path(str(tmp_path)) / "contract.json", widgets())
    result = run_cli(["contract", "import", str(path)])
    assert result.exit_code == 0, result.stderr
    return result


def redirect(httpx_mock: HTTPXMock, source: str, target: str, status: int = 302) -> None:
    httpx_mock.add_response(url=source, status_code=status, headers={"Location": target})


def test_a_redirect_chain_carries_the_credential_only_on_the_services_origin(
    httpx_mock: HTTPXMock,
) -> None:
    redirect(httpx_mock, f"{BASE_URL}/widgets/w1", STORAGE)
    redirect(httpx_mock, STORAGE, f"{BASE_URL}/files/w1.zip", status=307)
    httpx_mock.add_response(
        url=f"{BASE_URL}/files/w1.zip",
        content=b"PK\x03\x04\x00zip",
        headers={"Content-Type": "application/zip"},
    )

    result = run_cli([*READ, "--debug"], env=token_env())

    assert result.exit_code == 0, result.stderr
    assert result.stdout.encode("latin-1") == b"PK\x03\x04\x00zip"
    auth = [r.headers.get("Authorization") for r in httpx_mock.get_requests()]
    assert auth == [f"Bearer {ORG_KEY}", None, f"Bearer {ORG_KEY}"]
    [hop] = [line for line in result.stderr.splitlines() if "(redirect 1;" in line]
    assert hop == (
        "> GET https://storage.example.test/exports/w1.zip?… "
        "(redirect 1; credential not sent: another origin)"
    )  # the storage URL's signature is not shown


def test_text_reaches_a_terminal_made_safe_and_ends_its_line(httpx_mock: HTTPXMock) -> None:
    redirect(httpx_mock, f"{BASE_URL}/widgets/w1", STORAGE)
    httpx_mock.add_response(
        url=STORAGE, content=b"id,name\nw1,\x1b[2Jgear", headers={"Content-Type": "text/csv"}
    )

    result = run_cli(READ, env=token_env(), tty=True)

    assert result.exit_code == 0, result.stderr
    assert result.stdout == "id,name\nw1,\\x1b[2Jgear\n"


def test_binary_is_never_written_to_a_terminal(httpx_mock: HTTPXMock) -> None:
    redirect(httpx_mock, f"{BASE_URL}/widgets/w1", STORAGE)
    httpx_mock.add_response(url=STORAGE, content=b"\x00\x01\x02", headers={"Content-Type": ""})

    result = run_cli(READ, env=token_env(), tty=True)

    assert result.exit_code == 2
    assert result.stdout == ""
    assert "the answer is binary" in result.stderr
    assert "--output-file PATH, or redirect stdout: > FILE" in result.stderr


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "answered 302 without a Location"),
        ({"Location": "ftp://files.example.test/w1.zip"}, "a ftp: URL, not http(s)"),
    ],
)
def test_a_redirect_that_cannot_be_followed_is_an_error(
    httpx_mock: HTTPXMock, headers: dict[str, str], message: str
) -> None:
    httpx_mock.add_response(url=f"{BASE_URL}/widgets/w1", status_code=302, headers=headers)

    result = run_cli(READ, env=token_env())

    assert result.exit_code == 8
    assert message in result.stderr
    assert result.stdout == ""


def test_plain_http_off_loopback_needs_allow_insecure_http(httpx_mock: HTTPXMock) -> None:
    plain = "http://storage.example.test/w1.zip"
    redirect(httpx_mock, f"{BASE_URL}/widgets/w1", plain)

    refused = run_cli(READ, env=token_env())

    assert refused.exit_code == 2
    assert "refusing to follow a redirect to plain http://storage.example.test" in refused.stderr
    redirect(httpx_mock, f"{BASE_URL}/widgets/w1", plain)
    httpx_mock.add_response(url=plain, content=b"data", headers={"Content-Type": "text/plain"})
    allowed = run_cli([*READ, "--allow-insecure-http"], env=token_env())
    assert allowed.exit_code == 0, allowed.stderr
    assert allowed.stdout == "data"


def test_a_redirect_loop_ends(httpx_mock: HTTPXMock) -> None:
    redirect(httpx_mock, f"{BASE_URL}/widgets/w1", STORAGE)
    httpx_mock.add_response(
        url=STORAGE, status_code=302, headers={"Location": STORAGE}, is_reusable=True
    )

    result = run_cli(READ, env=token_env())

    assert result.exit_code == 8
    assert "more than 10 redirects" in result.stderr
    assert len(httpx_mock.get_requests()) == 11
