"""``leadctl profile list``: the configured profiles, the one in effect marked current, and
the built-in ``sandbox`` profile (marked built-in), which works without being configured."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import examples, row
from leadctl.config.service_target import SANDBOX_PROFILE
from leadctl.output import Column, emit_list

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.output import Column

EPILOG = examples("leadctl profile list", "leadctl profile list -o value --columns name")


@dataclass(frozen=True)
class Options:
    """`profile list` takes only the global options."""


def _columns() -> list[Column]:

    return [
        Column("name"),
        Column("current", kind="bool"),
        Column("built_in", "built-in", kind="bool"),
        Column("base_url", "base URL"),
        Column("output"),
        Column("region"),
        Column("credential_store", "store"),
        Column("credential_kind", "kind"),
    ]


def run(opts: Options, ctx: Context) -> None:

    config = ctx.config
    profiles = dict(config.profiles)
    # Listed whether configured or not: `-p sandbox` works on a fresh install, and a
    # newcomer looking for a profile to try should find it here.
    profiles.setdefault(SANDBOX_PROFILE, {})
    rows = [
        {**row(ctx, name, values), "built_in": name == SANDBOX_PROFILE}
        for name, values in sorted(profiles.items())
    ]
    emit_list(ctx, rows, columns=_columns())
    if not set(config.profiles) - {SANDBOX_PROFILE}:
        ctx.ios.info(
            "no profiles of your own yet: create one with `leadctl auth login`; "
            "the built-in sandbox answers `leadctl -p sandbox ...` meanwhile"
        )


HELP = """List the configured profiles; the one in effect is marked current.

The built-in `sandbox` profile (the sandbox embedded in leadctl, no login needed) is
always listed, marked built-in."""

command = verb_command(Options, run, help=HELP)
