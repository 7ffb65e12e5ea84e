"""Contract imports that would hang or crash (issue 22.3): a 418-byte YAML alias bomb, a
document nested 5,000 deep, one over the size limit, one slower than the time limit. Each is
exit 2 within seconds, stores nothing and leaves the active contract as it was, for
``contract import``, ``contract pull`` and ``contract diff``, as JSON and as YAML.

Each refusal by ``contract import`` and ``contract pull`` is the installed leadctl's, its wall
time measured from outside; the profile and the good contract a test starts from, reading the
active contract back, ``contract diff`` on the same file and the import within the default
limit run in-process (``run_in_process``: the same command tree and budget)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from leadctl.contract.budget import MAX_BYTES, MAX_DEPTH
from tests.generated.contracts import widgets
from tests.support.e2e import Completed, run_leadctl
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e

# Nine anchors of nine aliases each: 9**9 (387 million) strings once expanded.
ALIAS_BOMB = (
    'openapi: 3.1.0\ninfo: {title: bomb, version: "1"}\npaths: {}\n'
    'x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(
        f"x-{name}: &{name} [{','.join([f'*{previous}'] * 9)}]\n"
        for previous, name in zip("abcdefgh", "bcdefghi", strict=True)
    )
)
DEEP = 5000
# Whatever goes wrong must be over quickly (the bomb took 294 s).
QUICK = 20.0


def deep_json() -> str:
    head = '{"openapi": "3.1.0", "info": {"title": "deep", "version": "1"}, "paths": {}, "x-d": '
    return head + "[" * DEEP + "]" * DEEP + "}"


def deep_yaml() -> str:
    return (
        'openapi: 3.1.0\ninfo: {title: deep, version: "1"}\npaths: {}\nx-d: '
        + "[" * DEEP
        + "]" * DEEP
    )


HOSTILE = {
    "alias-bomb.yaml": (ALIAS_BOMB, "more than 10,000,000 nodes (YAML aliases expanded)"),
    "deep.json": (deep_json(), f"nests deeper than {MAX_DEPTH} levels"),
    "deep.yaml": (deep_yaml(), f"nests deeper than {MAX_DEPTH} levels"),
    "self.yaml": (
        'openapi: 3.1.0\ninfo: {title: self, version: "1"}\npaths: {}\nx-s: &s [1, *s]\n',
        "refers to a node that holds it",
    ),
}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A profile of a service whose contract (widgets) is already imported."""
    good = tmp_path / "widgets.json"
    good.write_text(json.dumps(widgets()), encoding="utf-8")
    assert run_in_process(["profile", "set", "base_url", "http://127.0.0.1:9"]).exit_code == 0
    imported = run_in_process(["contract", "import", str(good)])
    assert imported.exit_code == 0, imported.stderr
    return {}


def active_title(env: dict[str, str]) -> str:
    shown = run_in_process(["contract", "show", "-o", "json"], env=env)
    assert shown.exit_code == 0, shown.stderr
    return str(json.loads(shown.stdout)["title"])


def refused_quickly(
    args: list[str], env: dict[str, str], expected: str, run: Callable[..., Completed] = run_leadctl
) -> None:
    started = time.monotonic()
    result = run(args, env=env, timeout=120)
    elapsed = time.monotonic() - started
    assert result.exit_code == 2, result.stderr
    assert expected in result.stderr
    assert "nothing was stored" in result.stderr
    assert "Traceback" not in result.stderr
    assert elapsed < QUICK, f"{elapsed:.1f} s"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_refused_at_once_and_the_active_contract_stays(
    env: dict[str, str], tmp_path: Path, name: str
) -> None:
    text, expected = HOSTILE[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if name == "alias-bomb.yaml":
        assert len(path.read_bytes()) < 420

    refused_quickly(["contract", "import", str(path)], env, expected)
    refused_quickly(["contract", "diff", str(path)], env, expected, run_in_process)

    assert active_title(env) == "Widgets"


def test_from_stdin_too(env: dict[str, str]) -> None:
    started = time.monotonic()
    result = run_leadctl(["contract", "import", "-"], env=env, stdin=ALIAS_BOMB, timeout=120)
    assert result.exit_code == 2 and "YAML aliases expanded" in result.stderr
    assert time.monotonic() - started < QUICK
    assert active_title(env) == "Widgets"


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed(
    env: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.write(b'{"openapi": "3.1.0", "x-pad": "')
        handle.write(b"x" * MAX_BYTES)
        handle.write(b'"}')
    refused_quickly(["contract", "import", str(path)], env, "leadctl reads contracts of at most")
    assert active_title(env) == "Widgets"


def test_an_import_slower_than_its_time_limit_is_refused_and_says_how_to_allow_more(
    env: dict[str, str], tmp_path: Path
) -> None:
    document = widgets()
    document["info"]["title"] = "Widgets 2"
    path = tmp_path / "next.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    result = run_leadctl(["contract", "import", str(path), "--time-limit", "0.001"], env=env)

    assert result.exit_code == 2, result.stderr
    assert "took longer than the 0.001 s limit" in result.stderr
    assert "--time-limit SECONDS" in result.stderr
    assert active_title(env) == "Widgets"
    # The same document within the default limit is imported.
    assert run_in_process(["contract", "import", str(path)], env=env).exit_code == 0
    assert active_title(env) == "Widgets 2"


# -- contract pull from a service that publishes one ----------------------------------------


class _Publisher(BaseHTTPRequestHandler):
    body = b""
    content_type = "application/json"

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", self.content_type)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def publishing(body: str, content_type: str) -> Iterator[str]:
    """A loopback service whose every path answers ``body``: its base URL."""
    handler = type("Handler", (_Publisher,), {"body": body.encode(), "content_type": content_type})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.mark.parametrize(
    ("name", "content_type"),
    [("alias-bomb.yaml", "application/yaml"), ("deep.json", "application/json")],
)
def test_a_hostile_service_contract_is_refused_by_pull(
    tmp_path: Path, name: str, content_type: str
) -> None:
    text, expected = HOSTILE[name]
    with publishing(text, content_type) as base_url:
        env = {"LEADCTL_BASE_URL": base_url, "LEADCTL_TOKEN": "sk_test_0123456789abcdef"}
        refused_quickly(["contract", "pull"], env, expected)
        shown = run_in_process(["contract", "show", "-o", "json"], env=env)
        assert json.loads(shown.stdout)["source"] == "bundled"
