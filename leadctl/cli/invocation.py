"""The root's options, as Click parsed them, read into the invocation's Context.

Loaded by the root callback once a command is about to run (never by ``leadctl --help``,
which stops before the callback): what it needs (the Context and what that wires) is a
command's cost, not the help's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.clock import Clock
from leadctl.config.request_limits import DEFAULT_MAX_RETRIES, timeout_problem
from leadctl.context import Context
from leadctl.errors import UsageError
from leadctl.formats import OUTPUT_FORMATS
from leadctl.global_options import GlobalOptions
from leadctl.iostreams import IOStreams
from leadctl.output.jq_filter import compile_jq


def start(
    params: Mapping[str, Any],
    *,
    ios: IOStreams,
    env: Mapping[str, str],
    transport: Any,
    clock: Clock | None,
) -> Context:
    """The invocation's Context from the root's parsed options and the environment."""
    context = Context(
        ios=ios,
        options=global_options(params, env),
        env=env,
        transport=transport,
        clock=clock or Clock(),
    )
    set_streams(context)
    return context


def reapply(context: Context, params: Mapping[str, Any]) -> None:
    """A global option given after a group or verb name: the options are read again, with
    the same checks."""
    context.options = global_options(params, context.env)
    set_streams(context)


def set_streams(context: Context) -> None:
    options = context.options
    context.ios.no_color = options.no_color
    context.ios.no_input = options.no_input
    context.ios.quiet = options.quiet
    if options.no_pager:  # a verb may have turned the pager off already (listing.py)
        context.ios.no_pager = True


def global_options(params: Mapping[str, Any], env: Mapping[str, str]) -> GlobalOptions:
    """The global options as given (Click's values, by parameter name) and the environment."""
    profile, base_url = params.get("profile"), params.get("base_url")
    # `-p "$PROFILE"` with PROFILE unset must not quietly act on another profile.
    for flag, given in (("--profile", profile), ("--base-url", base_url)):
        if given is not None and not given.strip():
            raise UsageError(f"{flag} was given an empty value")
    timeout = params.get("timeout")
    if timeout is not None and timeout_problem(timeout):
        raise UsageError(f"--timeout {timeout:g} {timeout_problem(timeout)}")
    jq = params.get("jq")
    if jq is not None:
        # A mistyped expression is a usage error before anything is sent.
        compile_jq(jq)
    output, columns = _with_json_fields(params)
    max_retries = params.get("max_retries")
    return GlobalOptions(
        profile=profile or env.get("LEADCTL_PROFILE") or None,
        profile_from_env=profile is None,
        base_url=base_url or env.get("LEADCTL_BASE_URL") or None,
        base_url_from_env=base_url is None,
        # Click's value is the format's name (Typer makes the enum only for the callback).
        output=str(getattr(output, "value", output)) if output else _env_output(env),
        columns=[part.strip() for part in columns.split(",") if part.strip()] if columns else None,
        quiet=bool(params.get("quiet")),
        no_color=bool(params.get("no_color")),
        no_input=bool(params.get("no_input")),
        no_pager=bool(params.get("no_pager")),
        debug=bool(params.get("debug")) or env.get("LEADCTL_DEBUG", "") not in ("", "0"),
        timeout=timeout if timeout is not None else _env_timeout(env),
        max_retries=DEFAULT_MAX_RETRIES if max_retries is None else max_retries,
        dry_run=bool(params.get("dry_run")),
        allow_insecure_http=bool(params.get("allow_insecure_http")),
        jq=jq,
        utc=bool(params.get("utc")),
        allow_formulas=bool(params.get("allow_formulas")),
    )


def _with_json_fields(params: Mapping[str, Any]) -> tuple[Any, str | None]:
    """-o and --columns, with gh's ``--json FIELDS`` read as ``-o json --columns FIELDS``."""
    output, columns = params.get("output"), params.get("columns")
    fields = params.get("json_fields")
    if fields is None:
        return output, columns
    named = str(getattr(output, "value", output)) if output else None
    if named not in (None, "json") or columns not in (None, fields):
        raise UsageError(
            f"--json {fields} is `-o json --columns {fields}`: give it without -o or --columns"
        )
    return "json", fields


def _env_output(env: Mapping[str, str]) -> str | None:
    value = env.get("LEADCTL_OUTPUT") or None
    if value is not None and value not in OUTPUT_FORMATS:
        raise UsageError(
            f"LEADCTL_OUTPUT={value!r} is not an output format",
            hint="use one of " + ", ".join(OUTPUT_FORMATS),
        )
    return value


def _env_timeout(env: Mapping[str, str]) -> float | None:
    raw = env.get("LEADCTL_TIMEOUT") or None
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    problem = timeout_problem(value)
    if problem:
        raise UsageError(f"LEADCTL_TIMEOUT={raw!r} {problem}")
    return value
