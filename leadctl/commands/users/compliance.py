"""``leadctl users compliance``: show or update the current user's compliance settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._body_flags import BodyFlag, body_flags, field_flags, given_body_flags
from leadctl.commands._verb import verb_command
from leadctl.contract.curated_fields import FlagField, check_flag_fields, flag_fields
from leadctl.contract.operations import Operation, active_index_of, curated
from leadctl.contract.shapes import require_object
from leadctl.contract.whoami import current_user_operation
from leadctl.errors import UsageError
from leadctl.http.client import decode_json
from leadctl.output import emit_object
from leadctl.output.columns import Column
from leadctl.output.response_columns import output_columns
from leadctl.verbkit.replace import plan_replacement, send_replacement

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.curated_fields import FlagField
    from leadctl.contract.operations import Operation

USER_COLUMNS = (
    Column("name"),
    Column("email"),
    Column("compliance.acceptedTerms", kind="bool"),
    Column("compliance.acceptedToSubscription", kind="bool"),
    Column("compliance.acceptedSms", kind="bool"),
    Column("compliance.acceptedBaa", kind="bool"),
    Column("compliance.acceptedEmail", kind="bool"),
    Column("id"),
)

EPILOG = (
    "Examples:\n\n"
    "  leadctl users compliance --accepted-terms --accepted-sms --source cli\n\n"
    "  leadctl users compliance --no-accepted-email -o json | jq .compliance"
)


@dataclass(frozen=True)
class Options:
    """The compliance flags given (None: not given, the setting keeps its value)."""

    accepted_terms: Annotated[bool | None, _flag("accepted-terms", "acceptedTerms"), BodyFlag()] = (
        None
    )
    accepted_to_subscription: Annotated[
        bool | None,
        _flag("accepted-to-subscription", "acceptedToSubscription"),
        BodyFlag(),
    ] = None
    accepted_sms: Annotated[bool | None, _flag("accepted-sms", "acceptedSms"), BodyFlag()] = None
    accepted_baa: Annotated[bool | None, _flag("accepted-baa", "acceptedBaa"), BodyFlag()] = None
    accepted_email: Annotated[bool | None, _flag("accepted-email", "acceptedEmail"), BodyFlag()] = (
        None
    )
    # Where the update came from, recorded with it.
    source: Annotated[
        str | None,
        typer.Option(
            "--source",
            metavar="TEXT",
            help="Where the update came from, recorded with it (e.g. cli).",
        ),
    ] = None

    def given_flags(self) -> list[FlagField]:
        """The flags given as typed, with the field each sets, for the check against the
        contract."""

        given = [
            FlagField(flag=flag.as_typed(value), path=f"compliance.{flag.field}", value=value)
            for flag, value in given_body_flags(self).values()
        ]
        return given + flag_fields({"source": ("--source", self.source)})

    def flags(self) -> dict[str, bool | None]:
        """The compliance flags under the service's field names (None: not given)."""
        return {flag.field: getattr(self, name) for name, flag in body_flags(Options).items()}


def compliance_body(flags: dict[str, bool | None], source: str | None) -> dict[str, Any]:
    """Only the flags given: the other compliance fields keep their value (assumed)."""
    compliance = {name: value for name, value in flags.items() if value is not None}
    if not compliance:
        raise UsageError(
            "nothing to update: give at least one --accepted-X or --no-accepted-X flag"
        )
    body: dict[str, Any] = {"compliance": compliance}
    if source is not None:
        body["source"] = source
    return body


def run(opts: Options, ctx: Context) -> None:
    """PUT /users/compliance with the flags given; without any, show the current settings."""
    flags = opts.flags()
    if all(flag is None for flag in flags.values()) and opts.source is None:
        _show_current(ctx)
        return
    body = compliance_body(flags, opts.source)

    op = curated(ctx, "PUT", "/users/compliance")
    columns = output_columns(ctx, op, USER_COLUMNS)
    check_flag_fields(ctx, op, opts.given_flags())
    # Where the contract's update requires settings not given, they are read from the
    # current user (the update has no read of its own).
    planned = plan_replacement(
        ctx,
        op,
        path_params=None,
        changes=body,
        flags=field_flags(Options),
        read_with=_current_user(ctx),
    )
    answer = decode_json(send_replacement(ctx, op, planned, path_params=None), trace=None)
    user = require_object(answer, what="the updated user", required=("id",))
    emit_object(ctx, user, columns=columns)


def _current_user(ctx: Context) -> Operation | None:

    found = current_user_operation(active_index_of(ctx).listings())
    return None if found is None else Operation.of(found).with_overrides(ctx.settings)


def _show_current(ctx: Context) -> None:
    # The same current-user read `auth status` uses; the bundled contract has none.
    op = _current_user(ctx)
    if op is None:
        raise UsageError(
            "cannot show the current settings: the active contract has no operation that "
            "reads the current user (GET /users/me)",
            hint="give flags to change them (leadctl users compliance --accepted-terms ...), "
            "or `leadctl contract pull` if the service publishes such an operation",
        )

    columns = output_columns(ctx, op, USER_COLUMNS)
    user = require_object(ctx.client().call_json(op), what="the current user", required=("id",))
    emit_object(ctx, user, columns=columns)


def _flag(name: str, what: str) -> Any:
    return typer.Option(f"--{name}/--no-{name}", help=f"Set or clear {what}.", show_default=False)


HELP = """Update the current user's compliance settings (PUT /users/compliance), or show them.

    Only the flags given are sent; leadctl assumes the service keeps the other settings
    as they are (`leadctl users compliance` without flags shows them). With an
    organization key the user is assumed to be the key's owner. Prints the updated user.
    Without flags the current settings are shown, read with the active contract's
    current-user operation (GET /users/me or alike); the bundled contract has none, and
    then the command says so (exit 2).
    """

command = verb_command(Options, run, help=HELP)
