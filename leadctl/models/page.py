"""The collection page (the answer of a RequestDataOptions read), as a model.

Its field names are :mod:`leadctl.shapes`' ``PAGE_FIELDS``, the one definition of the
page's shape. It lives there, not here, because the pager checks every page with it on
``-o json`` reads too, which must load neither pydantic nor this package. This model
reads an already checked page's items as resources, for views and tables.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from leadctl.models.base import Integer, Resource, Text
from leadctl.shapes import check_page

R = TypeVar("R", bound=Resource)


class CollectionPage(Resource, Generic[R]):
    # The alias generator spells these exactly as shapes.PAGE_FIELDS, in that order
    # (tests/unit/test_models_page.py holds the two together).
    #
    # Checked by check_page before the model is built (see ``of``): a wrong items is
    # exit 8 there, so here it is a list of objects or absent.
    items: list[R] | None = None
    page_size: Integer = None
    total_count: Integer = None
    continuation_token: Text = None

    @classmethod
    def of(cls, data: Any, *, source: str) -> CollectionPage[R]:
        """The page in ``data``, or the same BadResponse the pager raises for it."""
        check_page(data, source=source)
        return cls.model_validate(data)
