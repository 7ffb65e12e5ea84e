"""TLS: verification is on by default; SSL_CERT_FILE and a profile's ca_bundle are
honoured; a certificate leadctl cannot verify is exit 8 with a TLS message, sent once (a
TLS failure is not a network blip to retry); a trust file that is missing or not PEM is a
usage error naming it, before anything is sent.

The installed leadctl against an HTTPS server on 127.0.0.1 with a certificate from a
private CA made by trustme, served by http.server in a thread; each test twice, a single read
sent by the one-shot stdlib transport (leadctl/http/one_shot.py) and by httpx.
"""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import trustme

from tests.support.e2e import Completed, run_leadctl

pytestmark = pytest.mark.e2e

TOKEN = "sk_test_tls_0123456789abcdefghij"
STATUSES = [{"id": "ls_1", "name": "New", "category": "Open"}]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        body = json.dumps(STATUSES).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, context: ssl.SSLContext) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.context = context
        self.connections = 0
        self.requests: list[str] = []

    def get_request(self) -> tuple[Any, Any]:
        sock, address = super().get_request()
        self.connections += 1
        # The handshake happens in the handler's thread; a client that refuses the
        # certificate makes it fail there, quietly (handle_error below).
        return self.context.wrap_socket(sock, server_side=True), address

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


@dataclass
class TlsService:
    base_url: str
    ca_file: Path
    server: _Server
    # The transport's choice (none: the one-shot transport sends a single read).
    transport_env: dict[str, str]


TRANSPORTS = {"stdlib": {}, "httpx": {"LEADCTL_HTTP_TRANSPORT": "httpx"}}


@pytest.fixture(params=TRANSPORTS)
def transport_env(request: pytest.FixtureRequest) -> dict[str, str]:
    return TRANSPORTS[request.param]


def serve(tmp: Path, *names: str, transport_env: dict[str, str]) -> Iterator[TlsService]:
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(*names).configure_cert(context)
    ca_file = tmp / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    server = _Server(context)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        yield TlsService(f"https://127.0.0.1:{port}", ca_file, server, transport_env)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def service(tmp_path: Path, transport_env: dict[str, str]) -> Iterator[TlsService]:
    yield from serve(tmp_path, "127.0.0.1", "localhost", transport_env=transport_env)


def run(service: TlsService, *args: str, **env: str) -> Completed:
    return run_leadctl(
        [*args, "lead-statuses", "list", "-o", "json"],
        env={
            "LEADCTL_TOKEN": TOKEN,
            "LEADCTL_BASE_URL": service.base_url,
            **service.transport_env,
            **env,
        },
    )


def test_an_unknown_ca_is_refused_once_with_a_tls_message(service: TlsService) -> None:
    result = run(service)
    assert result.exit_code == 8, result.stderr
    assert result.stdout == ""
    assert "TLS verification failed" in result.stderr
    assert "certificate verify failed" in result.stderr
    assert "SSL_CERT_FILE" in result.stderr and "ca_bundle" in result.stderr  # the way out
    assert "retrying" not in result.stderr
    assert service.server.connections == 1  # not retried: trying again cannot help
    assert service.server.requests == []  # nothing, credential included, was sent


def test_ssl_cert_file_is_honoured(service: TlsService) -> None:
    result = run(service, SSL_CERT_FILE=str(service.ca_file))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == STATUSES
    assert service.server.requests == ["/lead-statuses"]


def test_a_profile_ca_bundle_is_honoured_by_commands_and_by_login(
    service: TlsService,
) -> None:
    setup = run_leadctl(["-p", "private", "profile", "set", "ca_bundle", str(service.ca_file)])
    assert setup.exit_code == 0, setup.stderr
    result = run(service, "-p", "private")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == STATUSES
    login = run_leadctl(
        [
            "-p",
            "private",
            "auth",
            "login",
            "--base-url",
            service.base_url,
            "--with-token",
            "--insecure-storage",
            "--no-contract",
        ],
        stdin=TOKEN,
        env=service.transport_env,
    )
    assert login.exit_code == 0, login.stderr  # its check trusts the profile's CA too
    assert service.server.requests == ["/lead-statuses"] * 2


def test_a_certificate_for_another_host_is_refused(
    tmp_path: Path, transport_env: dict[str, str]
) -> None:
    for service in serve(tmp_path, "api.example.test", transport_env=transport_env):
        result = run(service, SSL_CERT_FILE=str(service.ca_file))
        assert result.exit_code == 8, result.stderr
        assert "TLS verification failed" in result.stderr
        assert "127.0.0.1" in result.stderr  # hostname mismatch names the host
        assert service.server.connections == 1


def test_a_missing_ssl_cert_file_is_a_usage_error(service: TlsService, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.pem"
    result = run(service, SSL_CERT_FILE=str(missing))
    assert result.exit_code == 2, result.stderr
    assert f"SSL_CERT_FILE={missing}" in result.stderr
    assert "Traceback" not in result.stderr
    assert service.server.connections == 0


def test_a_ca_bundle_that_is_not_pem_is_a_usage_error(service: TlsService, tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.pem"
    bundle.write_text("-----BEGIN CERTIFICATE-----\nnot base64\n", encoding="utf-8")
    setup = run_leadctl(["-p", "broken", "profile", "set", "ca_bundle", str(bundle)])
    assert setup.exit_code == 0, setup.stderr
    result = run(service, "-p", "broken")
    assert result.exit_code == 2, result.stderr
    assert "ca_bundle" in result.stderr and "no PEM certificate" in result.stderr
    assert "Traceback" not in result.stderr
    # Moved away since `profile set`: still a clean usage error naming it.
    bundle.unlink()
    result = run(service, "-p", "broken")
    assert result.exit_code == 2, result.stderr
    assert str(bundle) in result.stderr
    assert service.server.connections == 0
