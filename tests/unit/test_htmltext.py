"""HTML in contract descriptions rendered as plain text for --help."""

from __future__ import annotations

import pytest

from leadctl.util.htmltext import html_to_text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("Creates a lead.", "Creates a lead."),
        ("<p>Creates a lead.</p><p>Then   waits.</p>", "Creates a lead.\n\nThen waits."),
        ("One<br>two<br/>three", "One\n\ntwo\n\nthree"),
        ("Use <code>pageSize</code> &amp; <b>sort</b>.", "Use `pageSize` & sort."),
        ("<ul><li>one</li><li>two</li></ul>", "- one\n\n- two"),
        ('Returns <see cref="T:Leads.Lead"/>.', "Returns Leads.Lead."),
        ("&lt;tag&gt; &quot;quoted&quot; &#233;", '<tag> "quoted" é'),
        ("<script>alert(1)</script>Safe", "Safe"),
        # Not HTML's tags: generic types and comparisons stay as written.
        ("A List<string> of ids", "A List<string> of ids"),
        ("when a < b", "when a < b"),
    ],
)
def test_html_is_rendered_as_plain_paragraphs(html: str, text: str) -> None:
    assert html_to_text(html) == text
