"""Terminal views for people: gauges, sparklines, trees, drawn with rich.

Only used when the output format is ``table``; every other format goes through
:mod:`leadctl.output` so scripts get the service's data, not a picture of it. rich is
imported inside the functions. A view reads the decoded JSON through its resource model
(:mod:`leadctl.models`, pydantic), imported at module level: commands import a view
module only when they draw it, so no other path pays for pydantic.
"""
