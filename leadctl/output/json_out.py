"""``-o json`` and ``-o ndjson``: the service's JSON as received, lists streamed item by item.

Items are never collected: each is encoded and written as it comes off the iterator, so
memory stays flat however many pages ``--all`` follows. If the iterator fails part way
the array is left unterminated on purpose: a truncated list must not parse as a complete
one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

# Built once: json.dumps with non-default arguments builds a new encoder per call, which
# costs a third of the throughput on small items. check_circular is off because decoded
# JSON cannot contain a cycle.
COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
PRETTY_JSON = json.JSONEncoder(ensure_ascii=False, indent=2, check_circular=False)


def write_json_array(stream: TextIO, items: Iterable[Any], *, pretty: bool) -> int:
    """One JSON array: indented for a terminal, one compact item per line for a pipe."""
    write = stream.write
    count = 0
    if pretty:
        encode = PRETTY_JSON.encode
        for item in items:
            # Indenting the item's own lines gives the layout json.dumps(list, indent=2)
            # would; a raw newline cannot occur inside an encoded string.
            write(("[\n  " if count == 0 else ",\n  ") + encode(item).replace("\n", "\n  "))
            count += 1
    else:
        encode = COMPACT_JSON.encode
        for item in items:
            write(("[\n" if count == 0 else ",\n") + encode(item))
            count += 1
    write("\n]\n" if count else "[]\n")
    stream.flush()
    return count


def write_ndjson(stream: TextIO, items: Iterable[Any]) -> int:
    """One compact item per line."""
    write = stream.write
    encode = COMPACT_JSON.encode
    count = 0
    for item in items:
        write(encode(item) + "\n")
        count += 1
    stream.flush()
    return count


def write_json_object(stream: TextIO, obj: Any, *, pretty: bool) -> None:
    stream.write((PRETTY_JSON if pretty else COMPACT_JSON).encode(obj) + "\n")
    stream.flush()
