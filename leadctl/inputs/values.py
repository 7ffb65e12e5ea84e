"""A generated verb's body values in the forms the service wants, read from its schema.

Times: a date-time field takes the curated commands' forms (ISO 8601 with an offset-less
time in the profile's zone, ``-2h``, ``yesterday 09:00``, ``tomorrow 9am``) and is sent in
UTC; so is a value that reads as a time in a field whose type the schema does not give (a
range bound, ``{}``), since nothing says it is anything else. A date field takes ``today``,
``yesterday``, ``-7d``. Phone numbers (the contract's phone paths, see
``leadctl.contract.phones``) are sent in E.164, national numbers in the profile's region.
A value that cannot be converted is reported with the schema's findings; nothing is sent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, NamedTuple

from leadctl.errors import UsageError
from leadctl.inputs.datetimes import datetime_option, local_date, looks_like_datetime, parse_instant
from leadctl.inputs.phone import to_e164

if TYPE_CHECKING:
    from leadctl.contract.document import Document
    from leadctl.contract.entries import Parameter
    from leadctl.contract.invocation import InputInvocation


def normalised_param(ctx: InputInvocation, spec: Parameter, value: Any) -> Any:
    """A date-time parameter in the curated commands' forms (an offset-less time in the
    profile's zone, -7d, yesterday 09:00) as UTC ISO 8601, a date one's relative forms
    (today, -7d) as that date; a phone number parameter (path, query or header) in E.164."""
    if not isinstance(value, str):
        return value
    fmt = spec.format
    if fmt == "date":
        return local_date(value, zone=ctx.input_zone(), now=ctx.clock.now())
    if spec.untyped and looks_like_datetime(value):
        fmt = "date-time"  # nothing says it is anything else
    if fmt == "date-time":
        flag = spec.flag or spec.metavar or spec.name
        return datetime_option(flag, value, zone=ctx.input_zone(), now=ctx.clock.now()).isoformat()
    if spec.phone:
        return to_e164(
            value, region=ctx.settings.get("region"), what=spec.metavar or spec.flag or spec.name
        )
    return value


class Conversions(NamedTuple):
    zone: tzinfo | None  # of a time typed without an offset (None: the system's)
    now: datetime
    region: object  # the profile's default region for national phone numbers
    phones: Collection[str]  # dot paths, list items as name[]


def normalised(
    doc: Document,
    schema: Any,
    body: Any,
    conversions: Conversions,
    problems: dict[str, list[str]],
) -> Any:
    """``body`` with its times in UTC and its phone numbers in E.164; what cannot be
    converted is kept as typed and its reason added to ``problems``."""
    return _Walk(doc, conversions, problems).value(body, schema, "", "")


class _Walk:
    def __init__(
        self, doc: Document, conversions: Conversions, problems: dict[str, list[str]]
    ) -> None:
        self.doc = doc
        self.conversions = conversions
        self.problems = problems

    def value(self, value: Any, schema: Any, path: str, at: str) -> Any:
        """``path`` names the field as the contract's phone paths do (``a.b[]``), ``at``
        the value for an error (``a.b[2]``)."""
        if isinstance(value, Mapping):
            properties = self.doc.properties(schema) if schema is not None else {}
            return {
                key: self.value(
                    sub,
                    properties.get(key, self._other(schema)),
                    f"{path}.{key}" if path else str(key),
                    f"{at}.{key}" if at else str(key),
                )
                for key, sub in value.items()
            }
        if isinstance(value, list):
            items = self.doc.keyword(schema, "items") if schema is not None else None
            return [
                self.value(item, items, f"{path}[]", f"{at}[{index}]")
                for index, item in enumerate(value)
            ]
        if path in self.conversions.phones:
            return self._phone(value, at)
        if isinstance(value, str):
            return self._time(value, schema, at)
        return value

    def _other(self, schema: Any) -> Any:
        """The schema of a field the object does not list (None: not described)."""
        if schema is None:
            return None
        extra = self.doc.keyword(schema, "additionalProperties")
        return extra if isinstance(extra, Mapping) else None

    def _phone(self, value: Any, at: str) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # digits typed as a number are still the number
        if not isinstance(value, str):
            return value

        try:
            return to_e164(value, region=self.conversions.region, what="")
        except UsageError as error:
            reason = error.message.strip() + (f"; {error.hint}" if error.hint else "")
            self.problems.setdefault(at, []).append(reason)
            return value

    def _time(self, text: str, schema: Any, at: str) -> str:

        fmt = self.doc.keyword(schema, "format") if schema is not None else None
        kind = self.doc.type_of(schema) if schema is not None else None
        if fmt == "date":
            return self._date(text)
        if fmt != "date-time" and not (kind is None and looks_like_datetime(text)):
            return text
        conversions = self.conversions
        try:
            return parse_instant(text, zone=conversions.zone, now=conversions.now).isoformat()
        except ValueError as error:
            self.problems.setdefault(at, []).append(f"{text!r} is not a time: {error}")
            return text

    def _date(self, text: str) -> str:
        """A date field's relative forms (today, yesterday, -7d) as the date in the
        profile's zone; a date as typed is left to the schema."""

        return local_date(text, zone=self.conversions.zone, now=self.conversions.now)
