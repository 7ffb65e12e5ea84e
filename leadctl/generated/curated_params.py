"""Curated commands offer the active operation's other parameters, as generated verbs do.

A curated command's flags were written for leadctl's bundled contract. The service's own
contract may give the same operation query parameters those flags do not cover (an
archive filter, tag filters on the leads list): without them ``leads list --all`` would
miss archived leads. Each such parameter becomes a flag of the curated command, named and
typed as a generated verb's (``--include-archived``, ``--tag-ids``), its value read as
generated verbs read it (times, phone numbers), and sent with that operation only.
"""

# No `from __future__ import annotations`: Typer reads the option callbacks' annotations.
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.context import Context
from leadctl.contract.curated import CURATED_COMMANDS
from leadctl.contract.operations import Operation
from leadctl.contract.store import ActiveIndex, bundled_index
from leadctl.contract.templates import template_key

if TYPE_CHECKING:
    from leadctl.contract.entries import Parameter

# Types built at run time: typed as Any, since here they are values, not annotations.
_ANNOTATED: Any = Annotated


def add_contract_params(command: Any, group: str, verb: str, active: ActiveIndex) -> None:
    """Give the curated ``verb`` of ``group`` (its click command) the query parameters of
    its operation in the ``active`` contract's index that the bundled contract's lacks."""

    for (method, path), (owner, name) in CURATED_COMMANDS.items():
        if (owner, name) != (group, verb):
            continue
        listing = active.find(method, path)
        if listing is None:
            continue
        known = bundled_index().find(method, path)
        covered = {p.name for p in Operation.of(known).parameters} if known else set()
        params = Operation.of(listing).parameters
        extra = [p for p in params if p.where == "query" and p.name not in covered]
        if extra:
            _add(command, template_key(method, path), extra)


def _add(command: Any, key: tuple[str, str], specs: "list[Parameter]") -> None:
    # Only a verb the active contract gives parameters of its own pays for loading how a
    # generated verb types and describes them (most curated verbs get none).
    from leadctl.generated.command import param_annotation, param_help

    taken = {opt for param in command.params for opt in param.opts}
    template = typer.Typer(add_completion=False)
    parameters = []
    flags = []
    for index, spec in enumerate(specs):
        flag = str(spec.flag)
        if flag in taken:
            flag = f"--query-{flag[2:]}"
        flags.append(flag)
        decls = [f"{flag}/--no-{flag[2:]}"] if spec.type == "boolean" else [flag]
        option = typer.Option(
            *decls,
            help=param_help(spec) or None,
            show_default=False,
            expose_value=False,
            callback=_keeper(key, spec),
        )
        parameters.append((f"param_{index}", _ANNOTATED[param_annotation(spec) | None, option]))

    def _template(**_: Any) -> None:
        """Template only: its parameters are copied onto the curated command."""

    import inspect

    keyword = inspect.Parameter.KEYWORD_ONLY
    _template.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(name, keyword, annotation=kind, default=None)
            for name, kind in parameters
        ]
    )
    _template.__annotations__ = {name: kind for name, kind in parameters}
    template.command()(_template)
    command.params.extend(typer.main.get_command(template).params)
    command.help = (
        f"{command.help or ''}\n\nThe active contract's own query parameters, sent as given: "
        f"{', '.join(flags)}."
    ).strip()


def _keeper(key: tuple[str, str], spec: "Parameter") -> Any:
    def keep(typer_ctx: typer.Context, value: Any) -> None:
        if value is None or value == []:
            return
        obj = typer_ctx.find_root().obj
        if isinstance(obj, Context):
            from leadctl.inputs.given import remember_given

            remember_given(obj, key, spec, value)

    return keep
