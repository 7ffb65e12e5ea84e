"""What curated commands assume about a service whose contract leadctl does not have.

With leadctl's bundled contract active (no contract pulled or imported for the service),
some of what a curated command sends is leadctl's assumption. Their --help says so then,
and how to replace the assumption; with the service's own contract (or the sandbox's)
active, the help describes that contract instead and these notes are left out.
"""

from __future__ import annotations

_PULL = "`leadctl contract pull` replaces the assumption with the service's own contract."

# group -> verb -> the note appended to its help while the bundled contract is active.
BUNDLED_ASSUMPTIONS: dict[str, dict[str, str]] = {
    "leads": {
        "list": "With leadctl's bundled contract, the lead fields (firstName, lastName, phone, "
        "state, status, tags, processingStatus...) are leadctl's assumption. " + _PULL,
        "create": "With leadctl's bundled contract, the flat lead fields (firstName, lastName, "
        "email, phone, state, product, sourceId, tags, consentCertificate) are leadctl's "
        "assumption. " + _PULL,
    },
    "sources": {
        "update": "With leadctl's bundled contract, the update is assumed to be partial "
        "(only the fields given are sent). " + _PULL,
    },
    "status-changes": {
        "update": "With leadctl's bundled contract, the update is assumed to be partial "
        "(only the fields given are sent) and --type, --outcome and --follow-up-status take "
        "any value. " + _PULL,
    },
}
