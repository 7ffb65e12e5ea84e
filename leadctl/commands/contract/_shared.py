"""What several ``contract`` verbs share: the FILE|URL|- argument, reading and checking a
contract, storing it for the profile's service."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.cli.generated_tree import generated_tree
from leadctl.commands._verb import FromInvocation
from leadctl.commands.contract.summary import print_summary, summary
from leadctl.config.settings import validate_profile_name
from leadctl.contract.budget import DEFAULT_SECONDS
from leadctl.contract.loading import load_contract, new_budget
from leadctl.contract.store import ActiveIndex, save
from leadctl.verbkit.contract_fetch import read_contract

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.budget import Budget
    from leadctl.contract.loading import Loaded


def tree_contract(click_ctx: typer.Context) -> ActiveIndex:
    """The contract the command tree was built from this invocation (read once)."""
    return generated_tree(click_ctx).active


# A field of a verb's Options: the contract to show or diff against is the one the command
# tree was built from, not read again (run called directly reads the active one).
TreeContract = Annotated[ActiveIndex | None, FromInvocation(tree_contract)]

# Operations left out, and defaults kept that their schemas do not admit: how many of
# each a command names on stderr (all under --debug; `contract show` lists every one).
SHOWN_PROBLEMS = 10

SourceArgument = Annotated[
    str,
    typer.Argument(
        metavar="FILE|URL|-",
        help="An OpenAPI 3.0, 3.1 or 3.2 document (JSON or YAML): a file, - for stdin, or an "
        "https URL (the credential goes only to the profile's own host).",
    ),
]


TimeLimitOption = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        metavar="SECONDS",
        min=0.001,
        help="How long reading, checking and compiling the contract may take before it is "
        f"refused (default {DEFAULT_SECONDS:g} s; a 1,500-operation contract takes about "
        "2 s). Contracts over 64 MiB, nested deeper than 64 levels, or whose YAML aliases "
        "expand past 10 million nodes are refused whatever the limit.",
    ),
]


def new_budget_for(ctx: Context, what: str, seconds: float | None) -> Budget:

    return new_budget(what, ctx.clock.monotonic, seconds)


def load_checked(ctx: Context, source: str, budget_seconds: float | None) -> Checked:
    """The contract at ``source``, read, checked and in 3.1 form, within the time limit
    (which starts once its bytes are in: fetching has --timeout)."""

    raw, label = read_contract(ctx, source)
    budget = new_budget_for(ctx, label, budget_seconds)
    return Checked(load_contract(raw, what=label, budget=budget), label, budget)


class Checked:
    """A loaded contract, where it came from, and what is left of its time limit."""

    def __init__(self, loaded: Loaded, label: str, budget: Budget) -> None:
        self.loaded = loaded
        self.label = label
        self.budget = budget


def store(ctx: Context, checked: Checked, etag: str | None = None) -> None:

    profile = validate_profile_name(ctx.settings.profile)
    key = ctx.contract_key()
    label = checked.label
    report_problems(ctx, checked.loaded)
    if ctx.options.dry_run or key is None:
        ctx.ios.info(f"dry run: {label} is a usable OpenAPI contract; nothing was stored")
        return
    active = save(
        ctx.env,
        key,
        checked.loaded,
        source=label,
        imported_at=ctx.clock.now().isoformat(timespec="seconds").replace("+00:00", "Z"),
        etag=etag,
        budget=checked.budget,
    )
    data = summary(active, profile)
    print_summary(ctx, data)
    ctx.ios.info(
        f"{_sharing(ctx, profile)} now uses {label}: "
        f"{data['operations']} operations, {data['curated']} with curated commands, "
        f"{data['generated']} as generated commands"
        + (f", {len(checked.loaded.left_out)} left out" if checked.loaded.left_out else "")
        + (
            f", {len(checked.loaded.warnings)} defaults kept that do not match their schemas"
            if checked.loaded.warnings
            else ""
        )
    )


def report_problems(ctx: Context, loaded: Loaded) -> None:
    """One warning per operation left out and per default its schema does not admit (the
    first few of each, every one under --debug), and where the rest are."""
    shown = None if ctx.options.debug else SHOWN_PROBLEMS
    left_out, warnings = loaded.left_out, loaded.warnings
    # Paths, pointers and reasons quote the contract (text nobody here wrote): warn()
    # shows it safe.
    for entry in left_out[:shown]:
        ctx.ios.warn(f"left out {entry['operation']}: {'; '.join(entry['reasons'])}")
    for warning in warnings[:shown]:
        ctx.ios.warn(
            f"default kept at {warning['pointer']}, though its schema does not admit it: "
            f"{warning['message']}"
        )
    if shown is not None and len(left_out) > shown:
        ctx.ios.warn(f"... and {len(left_out) - shown} more operations left out")
    if shown is not None and len(warnings) > shown:
        ctx.ios.warn(
            f"... and {len(warnings) - shown} more defaults that do not match their schemas"
        )
    listed = [
        *(["every operation left out and why"] if left_out else []),
        *(["every default that does not match its schema"] if warnings else []),
    ]
    if listed:
        ctx.ios.info(f"`leadctl contract show` lists {' and '.join(listed)}")


def _sharing(ctx: Context, profile: str) -> str:
    """Who an imported contract serves: the profiles of one service share it; a profile
    with no base URL keeps its own (saying "every profile of profile 'x'" said nothing)."""
    if _has_service(ctx):
        return f"profile {profile!r} (and every profile of {service_name(ctx)})"
    return f"profile {profile!r}"


def service_of_profile(ctx: Context, profile: str) -> str:
    """The service and the profile that named it; a profile with no base URL is its own
    service, named once ("profile 'x' (profile 'x')" said it twice)."""
    if _has_service(ctx):
        return f"{service_name(ctx)} (profile {profile!r})"
    return f"profile {profile!r}"


def _has_service(ctx: Context) -> bool:
    """Whether the profile names a service beyond itself (the sandbox, or a base URL)."""
    return bool(ctx.settings.embedded_sandbox or ctx.settings.base_url)


def service_name(ctx: Context) -> str:
    if ctx.settings.embedded_sandbox:
        return "the embedded sandbox"
    return ctx.settings.base_url or f"profile {ctx.settings.profile!r}"
