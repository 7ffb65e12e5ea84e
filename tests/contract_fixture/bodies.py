"""Request bodies the fixture contract accepts, shared by the tests that send them."""

from __future__ import annotations

# A valid nested lead intake body (metadata, contact with an E.164 phone, customer, tags).
INTAKE = {
    "metadata": {"consentCertificateUrl": "https://cert.example.com/c/1"},
    "contact": {
        "firstName": "Ada",
        "lastName": "Lovelace",
        "email": "ada@example.com",
        "phone": {"number": "+15125550123"},
    },
    "customer": {"creditScore": 720, "homeowner": True},
    "tagIds": [],
    "tagNames": ["web"],
}
