"""A picker for an id left out on a terminal (`leadctl sources update` with no ID).

When a verb's argument is a path parameter (``PUT /sources/{id}``) and the active contract
has a list operation for that collection (``GET /sources``, or a paged read such as
``POST /sources/all``), its first page is offered with questionary. Only with stdin and
stdout on a terminal and without --no-input; anywhere else a missing id stays a usage
error (exit 2), so scripts never block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.cli.generated_tree import generated_tree
from leadctl.errors import Cancelled
from leadctl.http.paging import Pager, PageRequest
from leadctl.iostreams import safe_text
from leadctl.util.secret_fields import name_is_secret

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.contract.catalogue import OperationCatalogue
    from leadctl.contract.entries import Parameter
    from leadctl.contract.operations import Operation

PICK_PAGE_SIZE = 50
# Fields that tell items apart for a person, in the order they are shown.
LABEL_FIELDS = ("name", "title", "displayName", "firstName", "lastName", "email", "phone")


@dataclass(frozen=True)
class PickPlan:
    """Where the choices for one argument come from."""

    list_op: Operation
    field: str  # the item field that holds the argument's value
    metavar: str


def can_pick(context: Context) -> bool:
    ios = context.ios
    return ios.stdin_is_tty and ios.stdout_is_tty and not ios.no_input


def operation_of(tree: OperationCatalogue, group: str, verb: str) -> Operation | None:
    """The contract operation a curated or generated verb calls."""
    for op in tree.all_operations():
        if op.group == group and op.verb == verb:
            return op
    return None


def list_operation(tree: OperationCatalogue, collection: str) -> Operation | None:
    """A read of the whole collection: ``GET /sources`` or a paged ``POST /sources/all``."""
    found = None
    for op in tree.all_operations():
        if "{" in op.path:
            continue
        if op.method == "GET" and op.path == collection and op.body is None:
            found = found or op
        elif op.paged and op.path.startswith(collection + "/"):
            return op
    return found


# Curated arguments that take a listed item by another field than a path parameter:
# (group, verb, position) -> (the collection listed, the item field offered).
NAMED_ARGUMENTS: Mapping[tuple[str, str, int], tuple[str, str]] = {
    ("lead-statuses", "get", 0): ("/lead-statuses", "name"),
}


def named_plan(tree: OperationCatalogue, group: str, verb: str, position: int) -> PickPlan | None:
    """A curated argument of ``NAMED_ARGUMENTS`` whose collection the contract lists."""
    named = NAMED_ARGUMENTS.get((group, verb, position))
    if named is None:
        return None
    collection, field = named
    listed = list_operation(tree, collection)
    return None if listed is None else PickPlan(listed, field, field.upper())


def path_parameter(
    tree: OperationCatalogue, group: str, verb: str, position: int
) -> tuple[Operation, Parameter] | None:
    """The operation of ``group verb`` and the path parameter its ``position``-th argument
    fills, if it fills one."""
    op = operation_of(tree, group, verb)
    if op is None:
        return None
    path_params = [p for p in op.parameters if p.where == "path"]
    if position >= len(path_params):
        return None
    return op, path_params[position]


def plan(tree: OperationCatalogue, group: str, verb: str, position: int) -> PickPlan | None:
    """How to pick the ``position``-th argument of ``group verb``, if it can be picked."""
    found = path_parameter(tree, group, verb, position)
    if found is None:
        return None
    op, param = found
    collection = op.path.split("/{" + param.name + "}", 1)[0]
    if not collection or "{" in collection:
        return None
    listed = list_operation(tree, collection)
    if listed is None:
        return None
    return PickPlan(listed, param.name, param.metavar or "ID")


def first_page(context: Context, list_op: Operation) -> list[Mapping[str, Any]]:
    operation = list_op.with_overrides(context.settings)
    client = context.client()
    if operation.paged:
        pager = Pager(client, operation, {}, PageRequest(page_size=PICK_PAGE_SIZE))
        items, _token = pager.fetch_page(None)
        return [item for item in items if isinstance(item, Mapping)]
    data = client.call_json(operation)
    if isinstance(data, Mapping):
        data = data.get("items")
    if not isinstance(data, list):
        return []
    return [item for item in data if isinstance(item, Mapping)][:PICK_PAGE_SIZE]


def value_field(items: Sequence[Mapping[str, Any]], wanted: str) -> str | None:
    """The path parameter's own name when items carry it, else their id."""
    for field in (wanted, "id"):
        if items and all(isinstance(item.get(field), (str, int)) for item in items):
            return field
    return None


def description(item: Mapping[str, Any]) -> str:
    """What tells a person which item this is (its name, an email), on one line."""
    words = [
        str(item[name])
        for name in LABEL_FIELDS
        if item.get(name) not in (None, "") and not name_is_secret(name)
    ]
    return safe_text(" ".join(words[:3]), one_line=True)


def label(item: Mapping[str, Any], field: str) -> str:
    return safe_text("  ".join([str(item[field]), description(item)]).strip(), one_line=True)


def choose(question: str, choices: Sequence[tuple[str, str]]) -> str:
    """Asks on the terminal; Esc cancels (exit 10, as a "no" at a prompt), Ctrl-C ends
    leadctl like anywhere else (exit 130)."""
    import questionary
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    select = questionary.select(
        safe_text(question, one_line=True),
        choices=[questionary.Choice(title=title, value=value) for title, value in choices],
        instruction="(arrow keys, Enter to pick, Esc to cancel)",
    )

    def cancel(event: Any) -> None:
        event.app.exit(exception=Cancelled("cancelled: no id was picked"))

    bindings = select.application.key_bindings
    assert isinstance(bindings, KeyBindings)  # what questionary.select builds
    bindings.add(Keys.Escape, eager=True)(cancel)
    return str(select.unsafe_ask())


def pick_missing_argument(context: Context, click_ctx: Any, param: Any) -> str | None:
    """The value the user picked for ``param``, or None when no picker applies."""

    group_ctx = click_ctx.parent
    if group_ctx is None or group_ctx.parent is None:
        return None  # a single command (`api`), not GROUP VERB
    arguments = [p for p in click_ctx.command.params if p.param_type_name == "argument"]
    if param not in arguments:
        return None
    tree = generated_tree(click_ctx)
    found = plan(tree, group_ctx.command.name, click_ctx.command.name, arguments.index(param))
    if found is None:
        return None
    items = first_page(context, found.list_op)
    field = value_field(items, found.field)
    if field is None:
        return None
    choices = [(label(item, field), str(item[field])) for item in items]
    command = f"{group_ctx.command.name} {click_ctx.command.name}"
    return choose(f"{found.metavar} for `leadctl {command}`:", choices)
