"""``-o yaml``: the service's JSON as received, written as YAML (PyYAML, loaded only when
this format is chosen).

A list is a YAML sequence written item by item, as ``-o json`` streams its array: each item
is dumped as a one-item sequence, and those concatenate into one sequence. Keys keep the
service's order; strings are written as they are (Unicode unescaped), and PyYAML quotes
whatever would read back as another type (``"007"``, ``"yes"``, ``"1e3"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

import yaml

from leadctl.formats import YAML
from leadctl.output.columns import Column
from leadctl.output.renderer import Renderer

if TYPE_CHECKING:
    from leadctl.output.invocation import OutputInvocation

# The C dumper when PyYAML was built with libyaml; the same output, faster.
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def dump(value: Any) -> str:
    return yaml.dump(
        value, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, default_flow_style=False
    )


def write_yaml_list(stream: TextIO, items: Iterable[Any]) -> int:
    count = 0
    for item in items:
        stream.write(dump([item]))
        count += 1
    if not count:
        stream.write("[]\n")
    stream.flush()
    return count


class _Yaml(Renderer):
    def write_list(
        self, ctx: OutputInvocation, items: Iterable[Any], columns: Sequence[Column]
    ) -> int:
        return write_yaml_list(ctx.ios.data_out(), items)

    def write_object(self, ctx: OutputInvocation, obj: Any, columns: Sequence[Column]) -> None:
        stream = ctx.ios.data_out()
        stream.write(dump(obj))
        stream.flush()


RENDERERS: dict[str, Renderer] = {YAML: _Yaml()}
