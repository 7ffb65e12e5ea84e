"""The invocation's keep-alive connection pool (an httpx.Client), built on first use: its
base URL, timeout, headers, certificate roots (none loaded for a plain-http service until
an https URL is asked for) and cookie handling."""

from __future__ import annotations

import ssl
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from leadctl import __version__
from leadctl.http._httpx import LazyTransport

if TYPE_CHECKING:
    import httpx
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

USER_AGENT = f"leadctl/{__version__}"


class Pool:
    def __init__(
        self,
        *,
        base_url: str | Callable[[], str],
        timeout: float,
        transport: httpx.BaseTransport | None,
        # A callable is called only when an https URL is first used.
        verify: ssl.SSLContext | bool | Callable[[], ssl.SSLContext | bool],
        keep_cookies: bool,
    ) -> None:
        self._base_url = base_url
        self._timeout = timeout
        self._transport = transport
        self._verify = verify
        self._keep_cookies = keep_cookies
        self._http: httpx.Client | None = None

    def base(self) -> str:
        return self._base_url() if callable(self._base_url) else self._base_url

    def get(self) -> httpx.Client:
        if self._http is None:
            base = self.base()
            transport = self._transport
            mounts: dict[str, httpx.BaseTransport] | None = None
            verify: ssl.SSLContext | bool = True
            if transport is None and base.lower().startswith("http://"):
                # Plain http needs no certificate store: none is loaded unless an https URL
                # is asked for, which goes through a verifying transport built then.
                # verify=False only spares the store: this transport carries http:// alone.
                transport = httpx.HTTPTransport(verify=False)
                mounts = {
                    "https://": LazyTransport(
                        lambda: httpx.HTTPTransport(verify=self._resolved_verify())
                    )
                }
            elif transport is None:
                verify = self._resolved_verify()
            self._http = httpx.Client(
                base_url=base,
                timeout=self._timeout,
                headers={"User-Agent": USER_AGENT, "Accept": "application/json"},
                transport=transport,
                mounts=mounts,
                verify=verify,
                follow_redirects=False,
                cookies=None if self._keep_cookies else _no_cookie_jar(),
            )
        return self._http

    def resolved_verify(self) -> ssl.SSLContext | bool:
        """The certificate roots, loaded (once) when first asked for."""
        return self._resolved_verify()

    def _resolved_verify(self) -> ssl.SSLContext | bool:
        if callable(self._verify):
            self._verify = self._verify()
        return self._verify

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None


def _no_cookie_jar() -> Any:
    """A cookie jar that keeps nothing: reading every answer's Set-Cookie headers was 7% of
    a bulk run's CPU. (http.cookiejar is loaded with httpx, which is loaded by now.)"""
    import http.cookiejar

    class NoCookies(http.cookiejar.CookieJar):
        def extract_cookies(self, response: Any, request: Any) -> None:
            return None

        def set_cookie(self, cookie: Any) -> None:
            return None

    return NoCookies()
