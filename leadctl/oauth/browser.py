"""The authorization code grant with PKCE (S256) and a loopback redirect (RFC 8252).

A one-shot HTTP server on 127.0.0.1 and an ephemeral port takes the browser's redirect;
the ``state`` must match before the code is used. The URL is always printed, and the
browser opened when the user is at a desktop terminal.

The page the browser shows says what leadctl made of the answer, once it knows: signed
in only after the code was traded for tokens; refused (another sign-in's state), denied,
or the authorization server's error otherwise. The server's words are HTML-escaped.
"""

from __future__ import annotations

import html
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from leadctl.config.child_env import credentials_hidden
from leadctl.errors import Cancelled, NotAuthenticated

CALLBACK_PATH = "/callback"
# Long enough to find a password; a forgotten login must not wait forever.
WAIT_SECONDS = 300.0
# How long the browser's page waits for the terminal to finish (the token request).
PAGE_WAIT_SECONDS = 60.0
_PAGE = (
    "<!doctype html><meta charset=utf-8><title>leadctl</title>"
    "<p>{message}</p><p>You can close this window and return to the terminal.</p>"
)
SIGNED_IN = "Signed in to leadctl."
NOT_FINISHED = "leadctl did not finish the sign-in: see the terminal."
REFUSED_STATE = (
    "leadctl refused this answer: it does not belong to the sign-in leadctl started "
    "(its state differs). Nothing was signed in."
)
TOKEN_REFUSED = "The sign-in could not be completed (the token request failed): see the terminal."
DENIED = "The sign-in was denied at the authorization server. Nothing was signed in."


@dataclass
class Callback:
    """What the browser brought back, once, and what leadctl made of it."""

    done: threading.Event = field(default_factory=threading.Event)
    params: dict[str, str] = field(default_factory=dict)
    finished: threading.Event = field(default_factory=threading.Event)
    outcome: str = NOT_FINISHED
    succeeded: bool = False


class LoopbackReceiver:
    """The redirect target: ``http://127.0.0.1:PORT/callback``."""

    def __init__(self) -> None:
        self.callback = Callback()
        callback = self.callback

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urlsplit(self.path)
                if url.path != CALLBACK_PATH or callback.done.is_set():
                    self.send_error(404)
                    return
                query = {k: v[0] for k, v in parse_qs(url.query).items() if v}
                callback.params.update(query)
                callback.done.set()
                # The terminal decides (state, error, token request); the page tells it.
                callback.finished.wait(PAGE_WAIT_SECONDS)
                message = html.escape(callback.outcome)
                body = _PAGE.format(message=message).encode("utf-8")
                self.send_response(200 if callback.succeeded else 400)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                return  # the query holds the code: never logged

        self._server = HTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="leadctl-oauth-redirect", daemon=True
        )

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{CALLBACK_PATH}"

    def __enter__(self) -> LoopbackReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.finish(NOT_FINISHED)  # a page still waiting is answered before shutting down
        self._server.shutdown()
        self._server.server_close()

    def finish(self, outcome: str, *, succeeded: bool = False) -> None:
        """What the browser's page says; the first outcome stands."""
        if not self.callback.finished.is_set():
            self.callback.outcome = outcome
            self.callback.succeeded = succeeded
            self.callback.finished.set()

    def wait(self, state: str, *, timeout: float, relogin_hint: str) -> str:
        """The authorization code; exit 10 when the user denied, 3 on a wrong state or
        when no answer came in time."""
        if not self.callback.done.wait(timeout):
            raise NotAuthenticated(
                f"no answer from the browser within {timeout:g} s", hint=relogin_hint
            )
        params = self.callback.params
        if params.get("state") != state:
            self.finish(REFUSED_STATE)
            raise NotAuthenticated(
                "the browser's answer carried a different state: refused (it did not come "
                "from this sign-in)",
                hint=relogin_hint,
            )
        error = params.get("error")
        if error == "access_denied":
            self.finish(DENIED)
            raise Cancelled("the sign-in was denied at the authorization server")
        if error:
            description = params.get("error_description")
            shown = f"{error}: {description}" if description else error
            self.finish(f"The authorization server answered: {shown}. Nothing was signed in.")
            raise NotAuthenticated(f"the sign-in failed ({shown})", hint=relogin_hint)
        code = params.get("code")
        if not code:
            self.finish("The answer held no authorization code. Nothing was signed in.")
            raise NotAuthenticated("the browser's answer held no authorization code")
        return code


def desktop_browser(env: Mapping[str, str]) -> bool:
    """Whether opening a browser would show a window rather than take over this terminal:
    Python's webbrowser falls back to console browsers (lynx, w3m) on a Linux host without
    a display, which would run in the terminal leadctl is printing to."""
    if env.get("BROWSER"):
        return True  # the user chose one
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def open_in_browser(url: str) -> bool:
    import webbrowser

    try:
        # webbrowser starts the browser with os.environ: not with the credential in it.
        with credentials_hidden():
            return webbrowser.open(url)
    except Exception:  # a broken browser setup must not end the sign-in
        return False


def authorize_in_browser(
    client: Any,
    authorization_endpoint: str,
    token_endpoint: str,
    receiver: LoopbackReceiver,
    *,
    show: Callable[[str], None],
    open_browser: bool,
    relogin_hint: str,
    timeout: float = WAIT_SECONDS,
) -> dict[str, Any]:
    """Send the user to the authorization endpoint and trade the code for tokens."""
    from authlib.common.security import generate_token

    code_verifier = generate_token(64)
    url, state = client.create_authorization_url(
        authorization_endpoint, code_verifier=code_verifier, redirect_uri=receiver.redirect_uri
    )
    show(f"Open this URL in a browser to sign in:\n  {url}")
    if open_browser and not open_in_browser(url):
        show("(no browser could be opened: open the URL above yourself)")
    code = receiver.wait(state, timeout=timeout, relogin_hint=relogin_hint)
    try:
        token: dict[str, Any] = dict(
            client.fetch_token(
                token_endpoint,
                grant_type="authorization_code",
                code=code,
                redirect_uri=receiver.redirect_uri,
                code_verifier=code_verifier,
            )
        )
    except BaseException:
        receiver.finish(
            "The authorization server refused to complete the sign-in: see the terminal."
        )
        raise
    receiver.finish(SIGNED_IN, succeeded=True)
    return token
