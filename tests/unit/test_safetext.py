"""The one function that makes outside text safe for a terminal (leadctl.util.safetext)."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leadctl.iostreams import safe_json, safe_text
from leadctl.util.safetext import _unsafe

# What a terminal acts on instead of showing: controls, format characters (bidi, zero
# width), line/paragraph separators, surrogates. The oracle is unicodedata, not the
# module's own table.
ACTED_ON = ("Cc", "Cf", "Zl", "Zp", "Cs")
LAYOUT = "\n\t"


def acted_on(text: str, *, allowed: str = LAYOUT) -> list[str]:
    return [ch for ch in text if ch not in allowed and unicodedata.category(ch) in ACTED_ON]


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),  # CSI: clear the screen
        ("\x1b]52;c;aGk=\x07", "\\x1b]52;c;aGk=\\x07"),  # OSC 52: write the clipboard
        ("\x1b]8;;https://evil.test\x1b\\x\x1b]8;;\x1b\\", "\\x1b]8;;https://evil.test\\x1b\\x"),
        ("a\x7fb", "a\\x7fb"),  # DEL
        ("\x9b31m", "\\x9b31m"),  # C1 CSI in one character
        ("\x85", "\\x85"),  # C1 next line
        ("exe.\u202etxt", "exe.\\u202etxt"),  # right-to-left override
        ("\u2066x\u2069", "\\u2066x\\u2069"),  # isolates
        ("\u200e\u200f\u061c", "\\u200e\\u200f\\u061c"),  # marks
        ("pay\u200bpal", "pay\\u200bpal"),  # zero-width space
        ("\u200c\u200d\u2060\ufeff", "\\u200c\\u200d\\u2060\\ufeff"),
        ("line\u2028sep", "line\\u2028sep"),
        ("\udc80", "\\udc80"),  # a lone surrogate would crash the UTF-8 encoder
        ("hidden\U000e0041", "hidden\\U000e0041"),  # a tag character (invisible)
        ("over\rwrite", "over\\rwrite"),  # a bare CR moves back over the line
        ("back\x08space", "back\\x08space"),
    ],
)
def test_what_a_terminal_would_act_on_is_shown(raw: str, shown: str) -> None:
    assert safe_text(raw).startswith(shown)
    assert acted_on(safe_text(raw)) == []


def test_text_with_nothing_to_act_on_is_unchanged() -> None:
    text = "Zoë Ñúñez 山田 🎉 O'Brien <b>&amp; [bold] \\x1b 100%"
    assert safe_text(text) is text


def test_layout_alone_compiles_no_pattern() -> None:
    # Every help screen is such text: the pattern costs ~0.5 ms to compile.
    _unsafe.cache_clear()
    text = "Usage: leadctl [OPTIONS]\n\n\tleads  Leads: list, create\n"
    assert safe_text(text) is text
    assert _unsafe.cache_info().misses == 0
    assert safe_text(text, one_line=True) == text.replace("\n", " ").replace("\t", " ")


def test_newlines_and_tabs_are_layout_a_crlf_is_a_newline() -> None:
    assert safe_text("a\r\nb\n\tc") == "a\nb\n\tc"
    assert safe_text("a\r\nb\n\tc\x1b", one_line=True) == "a b  c\\x1b"


def test_the_class_covers_every_character_unicode_says_is_control_or_format() -> None:
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if chr(code) not in LAYOUT
        and unicodedata.category(chr(code)) in ACTED_ON
        and safe_text(chr(code)) == chr(code)
    ]
    assert missed == []


printable_or_not = st.text(st.characters(codec=None, exclude_categories=()), max_size=40) | st.text(
    st.sampled_from("a\x1b\x07\x9b\u202e\u200b\ufeff\r\n\t\x7f\udc80é"), max_size=20
)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(printable_or_not, st.booleans())
def test_nothing_acted_on_survives_and_applying_twice_changes_nothing(
    text: str, one_line: bool
) -> None:
    once = safe_text(text, one_line=one_line)
    assert acted_on(once, allowed="" if one_line else LAYOUT) == []
    assert safe_text(once, one_line=one_line) == once


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | printable_or_not,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(printable_or_not, inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(json_values, st.booleans())
def test_json_stays_the_same_json_value_with_nothing_acted_on(value: Any, pretty: bool) -> None:
    encoded = json.dumps(value, ensure_ascii=False, indent=2 if pretty else None)
    safe = safe_json(encoded)
    assert json.loads(safe) == value
    assert acted_on(safe) == []


def test_json_escapes_characters_beyond_the_bmp_as_a_surrogate_pair() -> None:
    safe = safe_json(json.dumps("x\U000e0041", ensure_ascii=False))
    assert safe == '"x\\udb40\\udc41"'
    assert json.loads(safe) == "x\U000e0041"
