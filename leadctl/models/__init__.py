"""Lenient pydantic models of the service's resources, for the code that reads them.

Every field is optional and unknown fields are kept (``model_extra``): the reference
leaves much "not shown", and a newer service adds fields. A model is built only where a
table or view reads fields; ``-o json`` and the other formats print the service's JSON
as received, so neither they nor ``leadctl --help`` import pydantic (this package's
modules import it at module level; nothing outside views and tables imports them at
module level).

This ``__init__`` stays empty on purpose: importing one model must not build them all.
"""
