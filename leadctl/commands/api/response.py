"""How ``leadctl api`` prints an answer's body: raw by default, through the output layer
when a format, --columns or --jq asks for it."""

from __future__ import annotations

import json
from typing import Any

from leadctl.output import emit_list, emit_object
from leadctl.util.jsontext import loads_service


def write_body(ctx: Any, content: bytes, content_type: str) -> None:
    """The answer's body on stdout: as received in a pipe; on a terminal JSON indented and
    any other text with its escapes shown, not acted on."""
    ios = ctx.ios
    if not content:
        return
    if "json" in content_type and _formatted_output_wanted(ctx):
        try:
            data = loads_service(content)
        except ValueError:
            data = None
        if data is not None:
            _emit_data(ctx, data)
            return
    if "json" in content_type and ios.stdout_is_tty:
        try:
            pretty = json.dumps(loads_service(content), indent=2, ensure_ascii=False)
        except (ValueError, RecursionError):  # not JSON, or too deep to indent: as received
            pass
        else:
            ios.data_out(json=True).write(pretty + "\n")
            return
    text = content.decode("utf-8", errors="replace")
    ios.data_out().write(text if text.endswith("\n") else text + "\n")


def _formatted_output_wanted(ctx: Any) -> bool:
    """--jq, --columns or an -o other than json: the body goes through the output layer
    (raw JSON stays the default, even on a terminal)."""
    options = ctx.options
    return bool(
        options.jq is not None
        or options.columns
        or (options.output is not None and options.output not in ("json", "ndjson"))
    )


def _emit_data(ctx: Any, data: Any) -> None:
    """A decoded answer in the chosen format; a collection page shows its items."""

    if ctx.options.jq is not None or isinstance(data, (str, int, float, bool)):
        emit_object(ctx, data, columns=[])
    elif isinstance(data, list):
        emit_list(ctx, data, columns=[])
    elif isinstance(data, dict) and isinstance(data.get("items"), list):
        emit_list(ctx, data["items"], columns=[])
    else:
        emit_object(ctx, data, columns=[])
