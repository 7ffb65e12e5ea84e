"""Which values are phone numbers: the one rule every command normalises to E.164 by.

A value is a phone number when its schema or its name says so: a phone format (``tel``,
``e164``), an E.164 pattern (``^\\+...``), a description that speaks of E.164 or opens with
"the phone number", a name such as phone, phoneNumber, mobilePhone, home_phone, a
``number`` inside a phone object, and ``to`` / ``from`` on a messaging operation (SMS,
calls). Never a name ending in Id, _id or Ids (``phoneNumberId``: an identifier of a
phone number, often a UUID, sometimes digits that E.164 would rewrite), never a non-string,
never a value whose format says it is something else (a time, an e-mail, a UUID).
It applies wherever the value sits: path, query, header and body alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadctl.contract.document import Document

PHONE_FORMATS = frozenset({"phone", "tel", "e164", "e.164", "phone-number", "phonenumber"})
# Formats that say the value is something else, whatever its name (phoneVerifiedAt).
OTHER_FORMATS = frozenset(
    {"date-time", "date", "time", "duration", "email", "idn-email", "uri", "url", "uuid",
     "hostname", "ipv4", "ipv6", "byte", "binary", "password"}
)  # fmt: skip
PHONE_NAMES = frozenset({"mobile", "cell", "msisdn", "tel", "telephone"})
MESSAGING_ENDS = frozenset({"to", "from"})
# The words of an operation (path, operationId, tags) that make it a messaging one.
MESSAGING_WORDS = frozenset(
    {"sms", "mms", "message", "messages", "messaging", "text", "texts", "call", "calls",
     "voice", "fax", "whatsapp", "conversation", "conversations"}
)  # fmt: skip
# An identifier by name: phoneNumberId, phone_number_id, phoneIds, phone-number-id, ID.
_IDENTIFIER = re.compile(r"(^id$|^ids$|Ids?$|IDs?$|[_-][iI][dD]s?$)")
# Fields about a phone that are not its number (phoneType, phoneConsent, phoneCount).
_NOT_A_NUMBER = re.compile(
    r"(type|kind|status|consent|verified|ext|extension|count|enabled|capable|label|name|"
    r"country|region|carrier|provider)$"
)
_E164_MENTION = re.compile(r"e\.?164", re.IGNORECASE)
# "Phone number in E.164", "The recipient's phone number", "A mobile number": a
# description that opens by saying what the value is; not "A name for the phone number".
_SAYS_PHONE_NUMBER = re.compile(
    r"^\W*(?:(?:the|a|an)\s+)?(?:[\w'\u2019-]+\s+){0,2}?(?:phone|mobile|cell|telephone)\s+number\b",
    re.IGNORECASE,
)
_SAYS_IDENTIFIER = re.compile(r"\b(identifier|id|uuid|guid)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def is_identifier(name: str) -> bool:
    """A name that says the value identifies something (``phoneNumberId``, ``user_id``)."""
    return bool(_IDENTIFIER.search(name))


def words_of(*texts: str) -> set[str]:
    """Lower-case words of camelCase, snake_case, kebab-case and plain text."""
    found: set[str] = set()
    for text in texts:
        found.update(word.lower() for word in _WORD.findall(text))
    return found


def is_messaging(path: str, operation_id: str | None, tags: Iterable[str] = ()) -> bool:
    """An operation that sends or handles messages or calls: its ``to``/``from`` are numbers."""
    return bool(MESSAGING_WORDS & words_of(path, operation_id or "", *tags))


def is_phone_value(doc: Document, path: str, schema: Any, *, messaging: bool = False) -> bool:
    """Whether the value at ``path`` (a dot path, or a parameter's name) with ``schema`` is
    a phone number, to be sent in E.164."""
    parts = [part for part in path.replace("[]", "").split(".") if part]
    leaf = parts[-1] if parts else ""
    if is_identifier(leaf) or doc.type_of(schema) not in ("string", None):
        return False
    fmt = doc.keyword(schema, "format")
    if isinstance(fmt, str) and fmt.lower() in PHONE_FORMATS:
        return True
    if isinstance(fmt, str) and fmt.lower() in OTHER_FORMATS:
        return False
    pattern = doc.keyword(schema, "pattern")
    if isinstance(pattern, str) and pattern.startswith(("^\\+", "^[+]", "^\\+?", "^[+]?")):
        return True
    description = doc.keyword(schema, "description")
    if isinstance(description, str):
        if _E164_MENTION.search(description):
            return True
        if _SAYS_PHONE_NUMBER.search(description) and not _SAYS_IDENTIFIER.search(description):
            return True
    name = leaf.lower()
    if name in PHONE_NAMES or ("phone" in name and not _NOT_A_NUMBER.search(name)):
        return True  # phone, phoneNumber, mobilePhone, home_phone; not phoneType
    if messaging and name in MESSAGING_ENDS:
        return True
    return name == "number" and len(parts) > 1 and "phone" in parts[-2].lower()


MAX_DEPTH = 6


def phone_paths(doc: Document, schema: Any, *, messaging: bool = False) -> list[str]:
    """The dot paths of a body's phone numbers (``contact.phone.number``, list items as
    ``backupPhones[]``), for normalising a body built from flags or lines."""
    found: list[str] = []
    _walk(doc, schema, "", messaging, found, 0)
    return found


def _walk(
    doc: Document, schema: Any, prefix: str, messaging: bool, found: list[str], depth: int
) -> None:
    if depth > MAX_DEPTH:
        return
    for name, sub in doc.properties(schema).items():
        path = f"{prefix}{name}"
        kind = doc.type_of(sub)
        if kind == "array":
            items = doc.keyword(sub, "items") or {}
            if doc.properties(items):
                _walk(doc, items, f"{path}[].", messaging, found, depth + 1)
            elif is_phone_value(doc, path, items, messaging=messaging):
                found.append(f"{path}[]")
        elif doc.properties(sub):
            _walk(doc, sub, f"{path}.", messaging, found, depth + 1)
        elif is_phone_value(doc, path, sub, messaging=messaging):
            found.append(path)
