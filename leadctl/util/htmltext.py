"""HTML in a contract's descriptions as plain text for --help.

Contracts generated from code comments (ASP.NET's XML docs, JSDoc) carry ``<p>``,
``<br>``, ``<code>``, lists and entities in their summaries and descriptions. Help shows
them as text: paragraphs and list items as paragraphs, ``<code>`` as backticks, entities
decoded, other known tags dropped. A ``<`` that does not open a known tag (``List<string>``,
``a < b``) stays as written: only HTML's own tags are taken for markup.
"""

from __future__ import annotations

from html.parser import HTMLParser

_PARAGRAPH_TAGS = frozenset(
    {
        "p", "para", "div", "br", "ul", "ol", "dl", "dt", "dd", "table", "tr", "pre",
        "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "summary", "remarks",
    }
)  # fmt: skip
_INLINE_TAGS = frozenset(
    {
        "a", "b", "i", "u", "em", "strong", "span", "small", "sub", "sup", "td", "th",
        "tbody", "thead", "abbr", "cite", "kbd", "samp", "var", "font", "see", "paramref",
        "typeparamref", "c",
    }
)  # fmt: skip
_CODE_TAGS = frozenset({"code", "tt"})
_DROPPED_WITH_CONTENT = frozenset({"script", "style"})


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, opening=True)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _PARAGRAPH_TAGS:
            self.parts.append("\n\n")
        elif tag == "see":
            # <see cref="T:Lead"/>: the name it points at, without its kind prefix.
            target = dict(attrs).get("cref") or dict(attrs).get("langword") or ""
            self.parts.append(target.split(":", 1)[-1])
        elif tag not in _INLINE_TAGS and tag not in _CODE_TAGS:
            self.parts.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        self._tag(tag, opening=False)

    def _tag(self, tag: str, *, opening: bool) -> None:
        if tag in _DROPPED_WITH_CONTENT:
            self._dropping += 1 if opening else -1
            self._dropping = max(self._dropping, 0)
        elif tag == "li":
            self.parts.append("\n\n- " if opening else "")
        elif tag in _PARAGRAPH_TAGS:
            self.parts.append("\n\n")
        elif tag in _CODE_TAGS:
            self.parts.append("`")
        elif tag not in _INLINE_TAGS:
            # Not HTML's: a generic type or a comparison that only looks like a tag.
            self.parts.append((self.get_starttag_text() or "") if opening else f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.parts.append(data)


def html_to_text(text: str) -> str:
    """``text`` with its HTML rendered as plain paragraphs (unchanged when it has none)."""
    if "<" not in text and "&" not in text:
        return text
    parser = _TextParser()
    parser.feed(text)
    parser.close()
    paragraphs = "".join(parser.parts).split("\n\n")
    # Within a paragraph HTML's whitespace is one space; between them, one blank line.
    kept = [" ".join(paragraph.split()) for paragraph in paragraphs]
    return "\n\n".join(paragraph for paragraph in kept if paragraph)
