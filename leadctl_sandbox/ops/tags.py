"""POST /tags/all and POST /tags (assumed operations of the Tags group)."""

from __future__ import annotations

from leadctl_sandbox.ops import Call, Reply
from leadctl_sandbox.paging import Collection, Field, collection_json, fetch_page
from leadctl_sandbox.problems import ApiProblem, validation_problem
from leadctl_sandbox.render import tag_json
from leadctl_sandbox.tags import ensure_tag, normalize

TAGS = Collection(
    select="SELECT * FROM tags",
    scope="org_id = ?",
    fields={
        "id": Field("id"),
        "name": Field("name"),
        "normalizedName": Field("normalized_name"),
        "color": Field("color"),
    },
    search_fields=("name",),
    default_order=(("name", "asc"),),
)


def list_tags(call: Call) -> Reply:
    page = fetch_page(
        call.conn, TAGS, call.body, scope_params=(call.principal.org_id,), secret=call.secret
    )
    return Reply(200, collection_json([tag_json(row) for row in page.rows], page))


def create_tag(call: Call) -> Reply:
    if call.principal.read_only:
        raise ApiProblem(403, "The user's role is read-only.")
    name = call.body["name"].strip()
    org_id = call.principal.org_id
    if not name:
        raise validation_problem({"name": ["must not be blank"]})
    taken = call.conn.execute(
        "SELECT id FROM tags WHERE org_id = ? AND normalized_name = ?", (org_id, normalize(name))
    ).fetchone()
    if taken is not None:
        raise validation_problem({"name": [f"a tag named {name!r} exists already"]})
    tag_id = ensure_tag(call.conn, org_id, name)
    if call.body.get("color"):
        call.conn.execute("UPDATE tags SET color = ? WHERE id = ?", (call.body["color"], tag_id))
    row = call.conn.execute("SELECT * FROM tags WHERE id = ?", (tag_id,)).fetchone()
    return Reply(201, tag_json(row))
