"""Source, a lead intake source (GET/PUT /sources/{id}, the rotation's ``source``)."""

from __future__ import annotations

from pydantic import Field

from leadctl.models.base import (
    Flag,
    IdNamePair,
    Instant,
    Number,
    Obj,
    Objs,
    Resource,
    Text,
    Texts,
)


class SourceTag(Resource):
    id: Text = None
    name: Text = None
    normalized_name: Text = None
    color: Text = None


class Source(Resource):
    id: Text = None
    name: Text = None
    description: Text = None
    enabled: Flag = None
    # A masked preview: the full key is never readable (only its hash is stored).
    api_key_preview: Text = None
    api_key_rotated_at: Instant = None
    first_lead_received_at: Instant = None
    last_lead_received_at: Instant = None
    user: Obj[IdNamePair] = None
    created_by_user: Obj[IdNamePair] = None
    created_by_user_email: Text = None
    modified_by_user: Obj[IdNamePair] = None
    organization: Obj[IdNamePair] = None
    cost_per_lead: Number = None
    allowed_states: Texts = None
    allowed_products: Texts = None
    requires_consent_certificate: Flag = None
    compliance_approved: Flag = None
    default_tag_ids: Texts = None
    default_tags: Objs[SourceTag] = None
    created_at: Instant = None
    modified_at: Instant = None


class Rotation(Resource):
    """The answer of POST /sources/{id}/credentials/rotate."""

    source: Obj[Source] = None
    # The new credential, returned this once. Left out of repr(): a model printed in a
    # debug line or an assertion must not show it.
    secret: Text = Field(default=None, repr=False)
