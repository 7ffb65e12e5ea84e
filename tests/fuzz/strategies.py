"""Hypothesis strategies for what people type: near misses of each grammar, and noise."""

from __future__ import annotations

import json
import string
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# Derandomized, so CI runs the same examples every time; no example database. How many:
# the run's profile (tests/support/hypothesis_profiles.py: 60, or 500 when thorough).
FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

noise = st.text(max_size=40)
printable = st.text(alphabet=string.printable, max_size=30)
field_names = st.one_of(
    st.sampled_from(["state", "createdAt", "status.name", "tags", "a.b.c", "_x", "9x", ""]),
    st.text(alphabet=string.ascii_letters + string.digits + "._-[] ", max_size=12),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.text(max_size=8), children, max_size=3),
    ),
    max_leaves=8,
)


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    """JSON text, whole or cut short or bent, or anything at all."""
    text = json.dumps(draw(json_values))
    how = draw(st.sampled_from(["whole", "cut", "bent", "noise"]))
    if how == "cut" and len(text) > 1:
        return text[: draw(st.integers(1, len(text) - 1))]
    if how == "bent":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.sampled_from(list("{}[],:\"'\\ x\x00"))) + text[at:]
    if how == "noise":
        return draw(noise)
    return text


def typed_values() -> st.SearchStrategy[str]:
    return st.one_of(
        noise,
        json_texts(),
        st.sampled_from(["true", "false", "null", "-0", "01", "1e5", "1.", ".5", "-", "[]"]),
        st.from_regex(r"-?\d{1,20}(\.\d{0,5})?([eE][-+]?\d{1,3})?", fullmatch=True),
        # Files that do not exist (never a real path of this machine) and stdin.
        st.sampled_from(["@", "@-", "@/nonexistent/leadctl-fuzz", "@./no-such-file"]),
    )


@st.composite
def typed_fields(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(noise).replace("@", "")
    key = draw(
        st.one_of(
            field_names,
            st.sampled_from(
                ["a[]", "a[b]", "a[b][]", "a[", "a]", "[]", "a..b", ".a", "a.", "x[]y"]
            ),
        )
    )
    return f"{key}{draw(st.sampled_from(['=', '==', ':', '']))}{draw(typed_values())}"


@st.composite
def range_expressions(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 3)) == 0:
        return draw(noise)
    operator = draw(st.sampled_from([">", ">=", "<", "<=", "=", "==", "=>", "=<", "<>", "><", ""]))
    value = draw(st.one_of(typed_values(), st.sampled_from(['"5"', '""', " ", "2026-11-21"])))
    space = draw(st.sampled_from(["", " "]))
    return f"{draw(field_names)}{space}{operator}{space}{value}"


@st.composite
def filters(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 3)) == 0:
        return draw(noise)
    sep = draw(st.sampled_from(["=", "==", ""]))
    value = draw(st.one_of(typed_values(), st.sampled_from(['"123"', '"', '""'])))
    return f"{draw(field_names)}{sep}{value}"


phone_numbers = st.one_of(
    noise,
    st.text(alphabet="+0123456789 ()-.extEXT#*", max_size=25),
    st.from_regex(r"\+?\d{1,17}", fullmatch=True),
    st.from_regex(r"tel:\+1 ?\(?\d{3}\)? ?\d{3}-?\d{4}( ?(x|ext\.?) ?\d{1,5})?", fullmatch=True),
    st.sampled_from(["", " ", "+", "+1", "+15125550100", "(512) 555-0100", "+44 20 7946 0958"]),
)


@st.composite
def date_times(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(noise)
    if kind == 1:
        moment = draw(st.datetimes())
        text = moment.isoformat(sep=draw(st.sampled_from(["T", " ", "t"])))
        return text + draw(st.sampled_from(["", "Z", "z", "+05:30", "-0800", "+14", "+24:00"]))
    return draw(
        st.from_regex(
            r"\d{4}-?\d{2}-?\d{2}([Tt ]\d{2}(:?\d{2}(:?\d{2}([.,]\d{1,9})?)?)?"
            r"([Zz]|[+-]\d{2}(:?\d{2})?)?)?",
            fullmatch=True,
        )
    )


profile_names = st.one_of(
    noise,
    st.text(alphabet=string.ascii_letters + string.digits + "_.-/ \\", max_size=70),
    st.sampled_from(["", ".", "..", "-x", "a" * 64, "a" * 65, "../etc", "x/y", "sandbox"]),
)


@st.composite
def base_urls(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 3)) == 0:
        return draw(noise)
    if draw(st.booleans()):
        scheme, sep = draw(st.sampled_from(["https", "http"])), "://"
    else:
        scheme = draw(st.sampled_from(["https", "http", "HTTPS", "ftp", "", "javascript"]))
        sep = draw(st.sampled_from(["://", ":/", ":", "//", ""]))
    host = draw(
        st.one_of(
            st.sampled_from(
                [
                    "api.example.test",
                    "127.0.0.1",
                    "localhost",
                    "[::1]",
                    "::1",
                    "",
                    "user:pw@h",
                    "a..b",
                    "ex ample.test",
                    "a\tb",
                    "xn--.test",
                    "exämple.test",
                    "a" * 64 + ".t",
                ]
            ),
            st.text(
                alphabet=string.ascii_lowercase + string.digits + ".-_[]:@ \t\u00e4\u200b%",
                max_size=20,
            ),
        )
    )
    port = draw(st.sampled_from(["", ":443", ":0", ":99999", ":x", ":"]))
    rest = draw(st.sampled_from(["", "/", "/v1", "/v1/", "?a=1", "#f", "/%zz", " "]))
    return f"{scheme}{sep}{host}{port}{rest}"


headers = st.one_of(
    noise,
    st.builds(
        lambda name, sep, value: f"{name}{sep}{value}",
        st.one_of(
            st.sampled_from(["X-Trace", "Authorization", "Host", "Cookie", "", "Bad Name"]),
            printable,
        ),
        st.sampled_from([":", ": ", "", "="]),
        printable,
    ),
)
