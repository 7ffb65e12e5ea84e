"""The typed, immutable values the index compiler passes from stage to stage.

Each stage builds new values from the last one's and changes none: ``read`` finds the
operations of the document (:class:`Found`), ``classify`` says what each one is
(:class:`Classified`), ``name`` gives each its group and command names (:class:`Naming`,
:class:`Named`, :class:`Clash`), and ``compile`` puts them together as the index's entries
(:class:`Entry`), which ``encode`` writes as the JSON the store keeps.

The parts an entry is made of (parameters, body, response...) are the reader's own types
(``leadctl.contract.entries``): what the compiler writes is what a reader decodes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from leadctl.contract.entries import Body, Idempotency, Parameter, Pending, Response

# A JSON value of the document (a schema, a spec), read as the document has it.
Json = Any


class Found(NamedTuple):
    """An operation as the document has it: its parameters resolved, path-level ones
    merged in, path parameters in the order of the path template."""

    path: str
    method: str  # upper case
    spec: Mapping[str, Json]
    params: tuple[Mapping[str, Json], ...]

    @property
    def operation_id(self) -> str | None:
        found = self.spec.get("operationId")
        return str(found) if found else None

    @property
    def tag(self) -> Json:
        """Its first tag (the group it is listed under), None when untagged."""
        return (self.spec.get("tags") or [None])[0]


class Classified(NamedTuple):
    """What an operation is and takes, as the CLI needs it."""

    id: str  # the operationId, else "METHOD path"
    operation_id: str | None
    method: str
    path: str
    summary: str
    description: str
    deprecated: bool
    assumed: bool
    retry_safe: bool
    retry_reason: str
    kinds: tuple[str, ...]
    # Per alternative of its security, the kinds it admits and where the credential goes:
    # leadctl.contract.security's rule, decoded by leadctl.config.credential_use.
    auth: Sequence[Mapping[str, Json]]
    idempotency: Idempotency | None
    params: tuple[Parameter, ...]
    body: Body | None
    response: Response
    pending: Pending | None
    download: bool
    destructive: bool
    read_kind: str  # "collection", "item" or "other": how a verb named from it reads
    # Schemas kept out of the index (schemas.json): the body's, and checked parameters'.
    body_schema: Json
    param_schemas: tuple[tuple[str, Json], ...]


class Naming(NamedTuple):
    """What an operation's command may be called, before the names are shared out."""

    group: str  # its group: the curated command's, else its tag's or its path's
    curated: tuple[str, str] | None  # the curated command that calls it
    words: tuple[str, ...]  # its short verb's words
    long_words: tuple[str, ...]  # the same, keeping the words its group repeats
    fallback: str  # a longer name, the same on every run
    cli_name: str | None  # x-cli-name
    cli_aliases: tuple[str, ...]  # x-cli-aliases
    group_words: tuple[str, ...]  # the words a verb drops when it repeats them

    @property
    def wanted(self) -> str:
        """The verb it asks for."""
        return self.cli_name or "-".join(self.words)


class Named(NamedTuple):
    """An operation's command names, once every operation of the contract has asked."""

    verb: str | None
    aliases: tuple[str, ...] = ()
    hidden_aliases: tuple[str, ...] = ()


class Clash(NamedTuple):
    """Several operations wanted one verb of a group: who got what (`contract show`)."""

    group: str
    verb: str
    operations: tuple[str, ...]  # "METHOD path" of each
    resolved: tuple[str, ...]  # "group verb" each got
    explicit: bool  # an x-cli-name is among them


class Entry(NamedTuple):
    """One operation of the compiled index."""

    what: Classified
    group: str
    curated: str | None  # "group verb" of the curated command that calls it
    named: Named
    pending: Pending | None  # its wait rule, once the operation it polls is known
