"""What the modules a verb runs with (listing, waiting, read-modify-write, downloads, query
options) read of the command being run: what output and the contract read, and the
profile's settings, the HTTP client and the service's address.

A Protocol, as ``leadctl.contract.invocation``: these modules name what they read and
never import the invocation's Context, which sits above them. The Context is such an object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from leadctl.contract.invocation import CuratedInvocation, InputInvocation
from leadctl.output.invocation import OutputInvocation

if TYPE_CHECKING:
    from leadctl.config.credentials import Credential
    from leadctl.config.profile_settings import Settings
    from leadctl.config.settings import Config
    from leadctl.global_options import GlobalOptions
    from leadctl.http.client import Client

SelfT = TypeVar("SelfT", bound="RequestInvocation")


class RequestInvocation(OutputInvocation, CuratedInvocation, InputInvocation, Protocol):
    """A command as the modules it runs with see it."""

    @property
    def settings(self) -> Settings: ...

    @property
    def config(self) -> Config: ...

    @property
    def transport(self) -> Any: ...

    def client(self) -> Client: ...

    def new_client(self, *, keep_cookies: bool = True) -> Client: ...

    def require_credential(self) -> Credential: ...

    def base_url(self) -> str: ...

    def with_options(self: SelfT, options: GlobalOptions) -> SelfT: ...
