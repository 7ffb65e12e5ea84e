"""``views/`` holds drawings for people: one command's data as a picture (a number's
capacity gauges and traffic sparkline, an automation's runs, a run as a tree), built as
rich renderables from the service's decoded JSON, plus the small pieces they share
(``widgets``, ``timefmt``).

A view knows a resource's shape and decides nothing about output: the command hands it to
the output registry (``emit_list``/``emit_object`` with ``view=``, see
:mod:`leadctl.output`), which draws it only for ``table`` without ``--columns``; every
other format prints the data itself, so scripts get the service's data, not a picture of
it. ``views.console`` puts a drawing on the terminal with :meth:`IOStreams.console`.
What works for any data (formats, columns, cells, fitting a table) belongs in ``output/``.
rich is imported inside the functions. A view reads the decoded JSON through its resource
model (:mod:`leadctl.models`, pydantic), imported at module level: commands import a view
module only when they draw it, so no other path pays for pydantic.
"""
