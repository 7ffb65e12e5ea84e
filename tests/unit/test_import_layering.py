"""Who may import whom (docs/ARCHITECTURE.md "Rooms"), checked on the real import graph.

grimp reads every import statement of ``leadctl`` and ``leadctl_sandbox``, the lazy ones
inside functions included, so a rule broken by a late ``from leadctl.commands.x import y``
is caught as surely as one at the top of a module.

- A command never imports another command: ``leadctl.commands.<group>`` may import itself
  and the verbs' shared helpers ``leadctl.commands._<name>`` (``_common``, ``_verb``...)
  only. What two groups share otherwise lives outside ``commands/``.
- Nothing outside ``leadctl.commands`` imports a command (``generated/``, ``contract/``,
  ``bulk/``, ``client``... are what commands build on; the root app loads groups by name).
- ``leadctl.output`` (any data, any format) never imports ``leadctl.views`` or
  ``leadctl.models`` (one resource's drawing and shape): views build on output.
- ``leadctl.util`` imports nothing else of leadctl, so anything may use it.
- Only the command layer imports the invocation's Context (``leadctl.context``), even for
  a type: ``commands/``, ``cli/`` and the entry points of the generated verbs. The rooms
  below name what they read of it as Protocols (``contract/invocation.py``,
  ``output/invocation.py``, ``http/invocation.py``) or take plain values.
- Only ``leadctl.sandbox_entry`` imports the sandbox, and the sandbox imports no more of
  leadctl than ``leadctl.util`` (small shared utilities with no leadctl imports of their own).

On the run-time graph (what executes: imports inside functions included, those under
``if TYPE_CHECKING:`` left out, since they never run):

- no import cycle: every strongly connected component is one module (also counting the
  imports made for a type only);
- the rooms are layers: collapsed to its packages (``leadctl.http``, ``leadctl.verbkit``...)
  and loose modules, the graph has no cycle either, type-only imports counted;
- :data:`LAYERS`, stated once here: a module imports its own layer and the layers below
  it, never one above.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import grimp
import pytest

COMMANDS = "leadctl.commands"
SHARED_BY_COMMANDS = "leadctl.commands._common"
# Modules of leadctl.commands named with a leading underscore: helpers every group may use.
SHARED_PREFIX = COMMANDS + "._"
SANDBOX = "leadctl_sandbox"
SANDBOX_ENTRY = "leadctl.sandbox_entry"
SANDBOX_MAY_USE = "leadctl.util"
UTIL = "leadctl.util"
OUTPUT = "leadctl.output"
ABOVE_OUTPUT = ("leadctl.views", "leadctl.models")
CONTEXT = "leadctl.context"
# The command layer: what may see the whole invocation (as gh's Factory only reaches cmd/).
CONTEXT_USERS = (
    COMMANDS,
    "leadctl.cli",
    "leadctl.generated.run",  # runs a generated verb
    "leadctl.generated.curated_params",  # a curated verb's contract parameters, at run time
)

Edge = tuple[str, str]

# The layers of the run-time graph, top to bottom. A module belongs to the layer of the
# longest prefix that names it (``leadctl.formats`` sits low, the rest of
# ``leadctl.output`` above ``leadctl.context``); modules named by no prefix (errors,
# iostreams, clock, small helpers, views, models) are leaves or near-leaves the rules above
# already govern.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("verbs", ("leadctl.commands",)),
    ("docs from the tree", ("leadctl.docgen",)),
    (
        "root command",
        (
            "leadctl.__main__",
            "leadctl.cli.app",
            "leadctl.cli.groups",
            "leadctl.cli.persistent_flags",
        ),
    ),
    (
        "generated tree",
        (
            "leadctl.cli.picker",
            "leadctl.cli.generated_tree",
            "leadctl.generated.startup",
            "leadctl.generated.curated_params",
            "leadctl.generated.command",
        ),
    ),
    (
        "running a verb",
        (
            "leadctl.generated.run",
            "leadctl.generated.body",
            "leadctl.generated.confirm",
            "leadctl.bulk",
            "leadctl.webhooks",
            "leadctl.contract.whoami",
            "leadctl.config.profiles",
        ),
    ),
    (
        "requests",
        (
            "leadctl.verbkit.listing",
            "leadctl.verbkit.waiting",
            "leadctl.verbkit.replace",
            "leadctl.verbkit.download",
            "leadctl.verbkit.query_options",
            "leadctl.output.response_columns",
            "leadctl.inputs.lead_fields",
            "leadctl.contract.curated_fields",
        ),
    ),
    (
        "output and discovery",
        ("leadctl.output", "leadctl.verbkit.contract_discovery", "leadctl.verbkit.contract_fetch"),
    ),
    ("context", ("leadctl.context",)),
    ("client", ("leadctl.http.client", "leadctl.oauth", "leadctl.contract.operation_secrets")),
    (
        "the client's layers",
        (
            "leadctl.http.pool",
            "leadctl.http.authorization",
            "leadctl.http.sending",
            "leadctl.http.debug_trace",
            "leadctl.http.dry_run",
            "leadctl.http.request_parts",
            "leadctl.http.secret_keys",
            "leadctl.http.bodies",
            "leadctl.http.problems",
            "leadctl.http.trust",
        ),
    ),
    ("resend decision", ("leadctl.http.resend",)),
    ("schemas", ("leadctl.contract.body_schema",)),
    ("catalogue", ("leadctl.contract.catalogue",)),
    ("operations", ("leadctl.contract.operations",)),
    ("contract", ("leadctl.contract", "leadctl.inputs.given")),
    (
        "values and credentials",
        (
            "leadctl.inputs.values",
            "leadctl.config.credentials",
            "leadctl.config.held_credential",
            "leadctl.contract.secret_schema",
        ),
    ),
    (
        "settings and pace",
        (
            "leadctl.config.settings",
            "leadctl.config.profile_settings",
            "leadctl.http.pacer",
            "leadctl.http.paging",
        ),
    ),
    (
        "policies and formats",
        (
            "leadctl.http.retry",
            "leadctl.config.request_limits",
            "leadctl.formats",
            "leadctl.config.tokens",
            "leadctl.contract.shapes",
        ),
    ),
    ("util", ("leadctl.util",)),
)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _group(module: str) -> str | None:
    """The command group a module belongs to (``leadctl.commands.leads.list`` -> leads)."""
    if not module.startswith(COMMANDS + "."):
        return None
    return module.split(".")[2]


def broken_rule(importer: str, imported: str) -> str | None:
    """Why this import is not allowed, or None."""
    if _within(imported, COMMANDS) and imported != COMMANDS:
        if not _within(importer, COMMANDS):
            return "only commands import commands"
        shared = imported.startswith(SHARED_PREFIX)
        if not shared and _group(importer) != _group(imported):
            return "a command imports another command"
    if imported == CONTEXT and not any(_within(importer, p) for p in CONTEXT_USERS):
        return "only the command layer imports the Context"
    if _within(importer, OUTPUT) and any(_within(imported, p) for p in ABOVE_OUTPUT):
        return "output never imports views or models"
    if _within(importer, UTIL) and _within(imported, "leadctl") and not _within(imported, UTIL):
        return "util imports nothing else of leadctl"
    if _within(imported, SANDBOX) and not _within(importer, SANDBOX) and importer != SANDBOX_ENTRY:
        return f"only {SANDBOX_ENTRY} imports the sandbox"
    sandbox_reaches_leadctl = _within(importer, SANDBOX) and _within(imported, "leadctl")
    if sandbox_reaches_leadctl and not _within(imported, SANDBOX_MAY_USE) and imported != "leadctl":
        return f"the sandbox imports no leadctl module but {SANDBOX_MAY_USE}"
    return None


def violations(edges: Iterable[Edge]) -> list[str]:
    found = []
    for importer, imported in edges:
        reason = broken_rule(importer, imported)
        if reason is not None:
            found.append(f"{importer} -> {imported}: {reason}")
    return sorted(found)


# The index compiler (leadctl.contract.index), a module per stage, first to last: a stage
# imports only the stages before it, and none imports the package itself (its __init__
# re-exports the last stage's entry points, its __main__ runs them).
INDEX = "leadctl.contract.index"
INDEX_STAGES = ("model", "columns", "read", "classify", "name", "encode", "compile")


def stage_violations(edges: Iterable[Edge]) -> list[str]:
    found = []
    for importer, imported in edges:
        if not (importer.startswith(INDEX + ".") and _within(imported, INDEX)):
            continue
        stage = importer.removeprefix(INDEX + ".")
        if stage not in INDEX_STAGES:
            continue
        used = imported.removeprefix(INDEX + ".") if imported != INDEX else None
        earlier = INDEX_STAGES[: INDEX_STAGES.index(stage)]
        if used not in earlier:
            found.append(f"{importer} -> {imported}: a stage imports only the stages before it")
    return sorted(found)


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` (0 = top) of the longest prefix naming ``module``."""
    best: tuple[int, int] | None = None
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if _within(module, prefix) and (best is None or len(prefix) > best[1]):
                best = (index, len(prefix))
    return None if best is None else best[0]


def layer_violations(edges: Iterable[Edge]) -> list[str]:
    found = []
    for importer, imported in edges:
        low, high = layer_of(importer), layer_of(imported)
        if low is not None and high is not None and high < low:
            found.append(
                f"{importer} ({LAYERS[low][0]}) -> {imported} ({LAYERS[high][0]}): "
                "a layer imports one above it"
            )
    return sorted(found)


def cycles(edges: Iterable[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    graph: dict[str, list[str]] = {}
    for importer, imported in edges:
        graph.setdefault(importer, []).append(imported)
        graph.setdefault(imported, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(graph[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(found)


def _edges(graph: grimp.ImportGraph) -> list[Edge]:
    return [
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
    ]


@cache
def real_edges() -> list[Edge]:
    # No cache on disk: building takes about a second, and a stale cache hides imports.
    return _edges(grimp.build_graph("leadctl", SANDBOX, cache_dir=None))


@cache
def run_time_edges() -> list[Edge]:
    graph = grimp.build_graph("leadctl", exclude_type_checking_imports=True, cache_dir=None)
    return _edges(graph)


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.commands.leads.list", "leadctl.commands.sources.update"),
        ("leadctl.commands.leads", "leadctl.commands.sources"),
        ("leadctl.generated.run", "leadctl.commands.leads.list"),
        ("leadctl.bulk.engine", "leadctl.commands.batch"),
        ("leadctl.context", "leadctl_sandbox.server"),
        ("leadctl.commands.sandbox.serve", "leadctl_sandbox"),
        ("leadctl_sandbox.app", "leadctl.http.client"),
        ("leadctl.output.registry", "leadctl.views.console"),
        ("leadctl.output.table", "leadctl.models.page"),
        ("leadctl.util.isotime", "leadctl.inputs.datetimes"),
        ("leadctl.output.registry", "leadctl.context"),
        ("leadctl.verbkit.listing", "leadctl.context"),
        ("leadctl.contract.operations", "leadctl.context"),
        ("leadctl.contract.catalogue", "leadctl.context"),
    ],
)
def test_each_rule_catches_what_it_forbids(importer: str, imported: str) -> None:
    assert violations([(importer, imported)]), f"{importer} -> {imported} slipped through"


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.commands.leads.list", "leadctl.commands.leads._shared"),
        ("leadctl.commands.leads.list", "leadctl.commands._common"),
        ("leadctl.commands.leads", "leadctl.verbkit.listing"),
        ("leadctl.sandbox_entry", "leadctl_sandbox.server"),
        ("leadctl_sandbox.store", "leadctl.util.isotime"),
        ("leadctl.views.number_status", "leadctl.output.cells"),
        ("leadctl.util.atomic", "leadctl.util.sigint"),
        ("leadctl.commands.leads.list", "leadctl.context"),
        ("leadctl.cli.hints", "leadctl.context"),
        ("leadctl.generated.run", "leadctl.context"),
    ],
)
def test_what_the_rooms_allow_passes(importer: str, imported: str) -> None:
    assert violations([(importer, imported)]) == []


def test_the_tree_keeps_to_its_rooms() -> None:
    # real_edges() counts imports made for a type only (under TYPE_CHECKING) too.
    edges = real_edges()
    # The graph is the real one: leadctl's app reaches its groups' shared helper, and the
    # sandbox entry point reaches the sandbox.
    assert ("leadctl.sandbox_entry", SANDBOX) in {(a, b.split(".")[0]) for a, b in edges}
    assert any(_within(a, COMMANDS) and b == SHARED_BY_COMMANDS for a, b in edges)
    assert violations(edges) == []


def test_a_cycle_is_found() -> None:
    assert cycles([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "d")]) == [["a", "b", "c"]]
    # One edge back from the retry policy to the client closes a real cycle.
    planted = [*run_time_edges(), ("leadctl.http.retry", "leadctl.http.client")]
    assert any({"leadctl.http.retry", "leadctl.http.client"} <= set(c) for c in cycles(planted))


def test_the_run_time_graph_has_no_cycle() -> None:
    edges = run_time_edges()
    # The graph is the real one, lazy imports included: the context builds the client
    # inside a method.
    assert ("leadctl.context", "leadctl.http.client") in edges
    assert cycles(edges) == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.http.retry", "leadctl.context"),
        ("leadctl.contract.index", "leadctl.contract.operations"),
        ("leadctl.contract.operations", "leadctl.generated.curated_params"),
        ("leadctl.output.response_columns", "leadctl.generated.run"),
        ("leadctl.http.pacer", "leadctl.http.client"),
        ("leadctl.formats", "leadctl.output.registry"),
        ("leadctl.util.jwt", "leadctl.config.credentials"),
    ],
)
def test_each_layer_keeps_to_those_below(importer: str, imported: str) -> None:
    assert layer_violations([(importer, imported)]), f"{importer} -> {imported} slipped through"


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.generated.run", "leadctl.verbkit.waiting"),
        ("leadctl.contract.operations", "leadctl.inputs.given"),
        ("leadctl.output.registry", "leadctl.contract.body_schema"),
        ("leadctl.context", "leadctl.formats"),
        ("leadctl.http.client", "leadctl.http.pacer"),
    ],
)
def test_what_the_layers_allow_passes(importer: str, imported: str) -> None:
    assert layer_violations([(importer, imported)]) == []


def test_every_run_time_import_keeps_to_the_layers() -> None:
    assert layer_violations(run_time_edges()) == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.contract.index.read", "leadctl.contract.index.classify"),
        ("leadctl.contract.index.model", "leadctl.contract.index.compile"),
        ("leadctl.contract.index.name", "leadctl.contract.index"),
        ("leadctl.contract.index.encode", "leadctl.contract.index.encode.helpers"),
    ],
)
def test_the_stage_rule_catches_a_backward_import(importer: str, imported: str) -> None:
    assert stage_violations([(importer, imported)]), f"{importer} -> {imported} slipped through"


def test_each_index_stage_imports_only_the_stages_before_it() -> None:
    edges = run_time_edges()
    # The rule sees the real stages: the last imports the others.
    assert ("leadctl.contract.index.compile", "leadctl.contract.index.name") in edges
    assert stage_violations(edges) == []


def room_of(module: str) -> str:
    """The room a module is in: its package under leadctl (``leadctl.http``), or the module
    itself when it sits loose in leadctl (``leadctl.context``); another package's top."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "leadctl" else parts[0]


def room_edges(edges: Iterable[Edge]) -> list[Edge]:
    """The module graph collapsed to rooms: one edge where some module of a room imports
    a module of another."""
    return sorted({(room_of(a), room_of(b)) for a, b in edges if room_of(a) != room_of(b)})


def test_a_cycle_between_rooms_is_found() -> None:
    # One import from the HTTP room up into what a verb runs with closes a cycle of rooms.
    planted = [*real_edges(), ("leadctl.http.paging", "leadctl.verbkit.listing")]
    assert any({"leadctl.http", "leadctl.verbkit"} <= set(c) for c in cycles(room_edges(planted)))


def test_the_rooms_are_layers() -> None:
    # Each room (package) only imports rooms below it, so a room can be read, tested and
    # changed knowing only those: no two rooms reach each other, however indirectly, not
    # even for a type (real_edges() counts imports under TYPE_CHECKING too).
    edges = room_edges(real_edges())
    assert ("leadctl.verbkit", "leadctl.http") in edges
    assert cycles(edges) == []


def test_no_cycle_counting_imports_made_for_a_type() -> None:
    # A type-only import is still a dependency a reader has to follow: leadctl's modules stay
    # acyclic with them counted (real_edges() includes TYPE_CHECKING imports).
    own = [(a, b) for a, b in real_edges() if _within(a, "leadctl") and _within(b, "leadctl")]
    assert ("leadctl.generated.run", "leadctl.contract.catalogue") in own  # a type-only one
    assert cycles(own) == []
