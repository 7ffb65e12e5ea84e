"""The one-shot stdlib transport's rule (when it is used) and its requests, which must be
httpx's to the byte: the URL and query, the Host, the headers in order (``--debug`` prints
them), wherever the credential is placed."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest

from leadctl.config.credential_use import Place, place_credential
from leadctl.contract.operations import bundled_operation
from leadctl.http.one_shot import OneShot, one_shot_allowed
from leadctl.http.pool import USER_AGENT
from leadctl.http.request_parts import query_params

READ = bundled_operation("GET", "/lead-statuses")
CREATE = bundled_operation("POST", "/leads")
PAGED = bundled_operation("POST", "/leads/all/my")  # a collection query, paged
LOCAL = "http://127.0.0.1:8080"


def allowed(op: Any = READ, *, base_url: str = LOCAL, injected: bool = False, **env: str) -> bool:
    transport = object() if injected else None
    return one_shot_allowed(op, base_url=base_url, transport=transport, env=env)


def test_a_single_read_or_create_goes_one_shot() -> None:
    assert PAGED.paged and not READ.paged
    assert allowed(READ)
    assert allowed(CREATE)
    assert allowed(READ, LEADCTL_HTTP_TRANSPORT="stdlib")
    assert allowed(READ, base_url="https://api.example.com")


@pytest.mark.parametrize(
    ("case", "kwargs"),
    [
        ("paged", {"op": PAGED}),
        ("injected transport", {"injected": True}),
        ("chosen httpx", {"LEADCTL_HTTP_TRANSPORT": "httpx"}),
        ("chosen HTTPX", {"LEADCTL_HTTP_TRANSPORT": " HTTPX "}),
        *[
            (name, {name: "http://proxy.invalid:3128"})
            for proxy in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
            for name in (proxy, proxy.upper())
        ],
        ("empty proxy variable", {"HTTPS_PROXY": ""}),
    ],
)
def test_httpx_sends_it_when(case: str, kwargs: dict[str, Any]) -> None:
    assert not allowed(**kwargs), case


def test_an_absolute_url_goes_through_httpx() -> None:
    pulled = dataclasses.replace(READ, path="https://docs.example.com/openapi.json")
    assert not allowed(pulled)


def _pair(
    base_url: str,
    method: str,
    path: str,
    *,
    params: dict[str, Any] | None = None,
    content: bytes | None = None,
    headers: list[tuple[str, str]] | None = None,
    place: Place | None = None,
) -> tuple[Any, httpx.Request]:
    ours: Any = OneShot(base_url=base_url, timeout=5).build_request(
        method, path, params=query_params(params), content=content, headers=headers or []
    )
    pool = httpx.Client(
        base_url=base_url, headers={"User-Agent": USER_AGENT, "Accept": "application/json"}
    )
    theirs = pool.build_request(
        method, path, params=query_params(params), content=content, headers=headers or []
    )
    if place is not None:
        place_credential(ours, [place], "s3cr=t key")
        place_credential(theirs, [place], "s3cr=t key")
    return ours, theirs


@pytest.mark.parametrize(
    ("base_url", "method", "path", "parts"),
    [
        (LOCAL, "GET", "/lead-statuses", {}),
        ("http://127.0.0.1:80/api/", "GET", "/lead-statuses", {}),
        ("http://localhost:9/v1", "GET", "/leads/a%2Fb", {}),
        (
            LOCAL,
            "GET",
            "/numbers/status",
            {"params": {"q": "a b/é&=", "on": True, "off": False, "gone": None, "many": [1, 2]}},
        ),
        (
            LOCAL,
            "POST",
            "/leads",
            {"content": b'{"email":"a@b"}', "headers": [("Content-Type", "application/json")]},
        ),
        (LOCAL, "POST", "/leads/x/rotate", {}),
        (LOCAL, "DELETE", "/status-changes/1", {}),
        (LOCAL, "GET", "/lead-statuses", {"place": Place("header", "Authorization", "bearer")}),
        (LOCAL, "GET", "/lead-statuses", {"place": Place("header", "X-Api-Key", "key")}),
        (LOCAL, "GET", "/lead-statuses", {"place": Place("header", "Authorization", "basic")}),
        (LOCAL, "GET", "/lead-statuses", {"place": Place("query", "api_key", "key")}),
        (
            LOCAL,
            "GET",
            "/numbers/status",
            {"params": {"a": "1"}, "place": Place("query", "api_key", "key")},
        ),
        (LOCAL, "GET", "/lead-statuses", {"place": Place("cookie", "session", "key")}),
    ],
)
def test_the_request_is_httpxs_to_the_byte(
    base_url: str, method: str, path: str, parts: dict[str, Any]
) -> None:
    ours, theirs = _pair(base_url, method, path, **parts)
    assert str(ours.url) == str(theirs.url)
    assert str(ours.url.copy_with(query=None, fragment=None)) == str(
        theirs.url.copy_with(query=None, fragment=None)
    )
    assert ours.url.target == theirs.url.raw_path.decode("ascii")
    assert ours.headers.items() == list(theirs.headers.items())
    assert [(k.lower(), v) for k, v in ours.headers.raw_items()] == [
        (k.decode().lower(), v.decode()) for k, v in theirs.headers.raw
    ]
    assert ours.content == theirs.content
