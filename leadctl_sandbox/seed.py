"""Realistic demo data, the same for the same seed.

Identifiers, names and shapes come from the seed; timestamps are offsets from the moment of
seeding, so "today" and "this hour" counters have something to count.
"""

from __future__ import annotations

import random
import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from leadctl_sandbox import keys, leadstatus
from leadctl_sandbox import seed_data as data
from leadctl_sandbox.db import dumps, insert, set_meta
from leadctl_sandbox.seed_activity import seed_activity
from leadctl_sandbox.tags import ensure_tag
from leadctl_sandbox.times import iso

MAIN_LEADS = 240
OTHER_LEADS = 12


class Seeder:
    def __init__(self, conn: sqlite3.Connection, seed: int, now: datetime, secret: bytes) -> None:
        self.conn = conn
        self.rng = random.Random(seed)
        self.now = now
        self.secret = secret
        self.sources_made = 0

    def new_id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def ago(self, days: float = 0.0, **more: float) -> datetime:
        return self.now - timedelta(days=days, **more)

    # -- organization and people -------------------------------------------------------

    def organization(self, name: str, plan: str) -> str:
        org_id = self.new_id()
        billing = {
            "hasPaymentProviderCustomer": True,
            "hasPaymentMethod": True,
            "phoneNumberQuantity": 5,
            "organizationMemberQuantity": 5,
            "organizationMemberAssignedQuantity": 3,
            "pendingBillingPlan": None,
            "billingPlanChangeEffectiveAt": None,
            "planRenewalAt": iso(self.now + timedelta(days=200)),
            "planPeriodStartAt": iso(self.ago(165)),
            "cancelAt": None,
            "dunning": None,
            "lastSubscriptionEventAt": iso(self.ago(165)),
            "lastPaymentMethodEventAt": iso(self.ago(300)),
        }
        if plan == "Monthly":
            billing.update(planRenewalAt=iso(self.now + timedelta(days=12)))
        insert(
            self.conn,
            "organizations",
            {
                "id": org_id,
                "name": name,
                "billing_state": dumps(billing),
                "created_at": iso(self.ago(400)),
            },
        )
        return org_id

    def user(self, org_id: str, first: str, last: str, domain: str, roles: list[str]) -> str:
        user_id = self.new_id()
        email = f"{first}.{last}@{domain}".lower()
        created = self.ago(self.rng.uniform(200, 400))
        insert(
            self.conn,
            "users",
            {
                "id": user_id,
                "org_id": org_id,
                "email": email,
                "first_name": first,
                "last_name": last,
                "phone": f"+1512555{self.rng.randrange(1000, 9999)}",
                "time_zone_id": "America/Chicago",
                "roles": dumps(roles),
                "billing_plan": "Annual",
                "subscription_status": "Active",
                "identities": dumps(
                    [
                        {
                            "issuer": f"https://login.{domain}/",
                            "issuerAssignedId": self.new_id(),
                            "signInType": "emailAddress",
                        }
                    ]
                ),
                "compliance": dumps(
                    {
                        "acceptedTerms": True,
                        "acceptedToSubscription": True,
                        "acceptedSms": "ReadOnly" not in roles,
                        "acceptedBaa": False,
                        "acceptedEmail": True,
                        "consentCertificates": [
                            {"id": self.new_id(), "kind": "terms", "acceptedAt": iso(created)}
                        ],
                    }
                ),
                "compliance_source": "web",
                "notification_preferences": dumps(self.notification_preferences(created)),
                "mobile_device_preferences": dumps([]),
                "last_logged_in_at": iso(self.ago(self.rng.uniform(0, 3))),
                "created_at": iso(created),
                "modified_at": None,
            },
        )
        return user_id

    def notification_preferences(self, created: datetime) -> dict[str, Any]:
        prefs: dict[str, Any] = {
            "smsConsentOptedIn": True,
            "smsConsentUpdatedAt": iso(created),
            "smsConsentCertificate": {"id": self.new_id(), "kind": "sms-opt-in"},
        }
        for name in (
            "paymentFailed", "lowWalletBalance", "newLead", "missedCall", "unreadSms",
            "automationFailed",
        ):  # fmt: skip
            prefs[f"{name}Enabled"] = True
            if name != "paymentFailed":
                prefs[f"{name}EmailEnabled"] = self.rng.random() < 0.7
            prefs[f"{name}SmsEnabled"] = self.rng.random() < 0.4
        prefs.update(tenDlcStatusEnabled=True, billingEmailEnabled=True, billingSmsEnabled=False)
        return prefs

    def org_key(self, org_id: str, user_id: str) -> None:
        key = keys.demo_org_key(self.secret, org_id)
        insert(
            self.conn,
            "org_keys",
            {
                "key_hash": keys.key_hash(key),
                "org_id": org_id,
                "user_id": user_id,
                "preview": keys.preview(key),
                "created_at": iso(self.ago(300)),
            },
        )

    def tags(self, org_id: str, names: tuple[str, ...]) -> dict[str, str]:
        return {name: ensure_tag(self.conn, org_id, name, tag_id=self.new_id()) for name in names}

    def statuses(self, org_id: str) -> None:
        for order, (name, color, category) in enumerate(data.LEAD_STATUSES):
            self.status(org_id, name, color, category, order, archived=False)
        self.status(org_id, "Legacy follow-up", "#cbd5e1", "Open", 99, archived=True)

    def status(
        self, org_id: str, name: str, color: str, category: str, order: int, *, archived: bool
    ) -> None:
        insert(
            self.conn,
            "lead_statuses",
            {
                "id": self.new_id(),
                "org_id": org_id,
                "name": name,
                "color": color,
                "category": category,
                "sort_order": order,
                "is_archived": int(archived),
                "modified_at": iso(self.ago(self.rng.uniform(30, 300))),
            },
        )

    # -- sources and leads -------------------------------------------------------------

    def source(self, org_id: str, owner: str, name: str, **settings: Any) -> str:
        source_id = self.new_id()
        key = keys.demo_source_key(self.secret, source_id)
        # Older sources first, in the order they are seeded: "Website form" is the first.
        created = self.ago(360 - 20 * self.sources_made - self.rng.uniform(0, 10))
        self.sources_made += 1
        rotated = settings.pop("rotated", False)
        insert(
            self.conn,
            "sources",
            {
                "id": source_id,
                "org_id": org_id,
                "name": name,
                "description": settings.pop("description"),
                "enabled": int(settings.pop("enabled", True)),
                "key_hash": keys.key_hash(key),
                "key_preview": keys.preview(key),
                "key_seeded": 1,
                "api_key_rotated_at": iso(self.ago(self.rng.uniform(10, 90))) if rotated else None,
                "user_id": owner,
                "created_by_user_id": owner,
                "modified_by_user_id": owner if rotated else None,
                "cost_per_lead": settings.pop("cost", 0.0),
                "allowed_states": dumps(settings.pop("states", [])),
                "allowed_products": dumps(settings.pop("products", [])),
                "requires_consent_certificate": int(settings.pop("consent", False)),
                "compliance_approved": 1,
                "default_tag_ids": dumps(settings.pop("tags", [])),
                "business_id": None,
                "created_at": iso(created),
                "modified_at": iso(self.ago(self.rng.uniform(1, 100))) if rotated else None,
            },
        )
        return source_id

    def lead(
        self,
        org_id: str,
        *,
        source_id: str | None,
        state: str,
        product: str,
        created: datetime,
        tag_ids: list[str],
        consent: str | None,
        rejected: str | None,
    ) -> dict[str, Any]:
        first = self.rng.choice(data.FIRST_NAMES)
        last = self.rng.choice(data.LAST_NAMES)
        number = f"+1{self.rng.choice(data.AREA_CODES)}555{self.rng.randrange(0, 10000):04d}"
        domain = self.rng.choice(data.EMAIL_DOMAINS)
        row = {
            "id": self.new_id(),
            "org_id": org_id,
            "first_name": first,
            "last_name": last,
            "email": f"{first}.{last}{self.rng.randrange(1, 99)}@{domain}".lower(),
            "phone": number,
            "state": state,
            "product": product,
            "source_id": source_id,
            "tag_ids": dumps(tag_ids),
            "processing_status": "Rejected" if rejected else "Accepted",
            "processing_error": rejected,
            "process_at": iso(created + timedelta(seconds=1)),
            "consent_certificate": consent,
            "created_at": iso(created),
            "modified_at": iso(created + timedelta(seconds=1)),
        }
        insert(self.conn, "leads", row)
        return row

    def history(self, lead: dict[str, Any], users: list[str], automation_ids: list[str]) -> None:
        by_name = {name: category for name, _color, category in data.LEAD_STATUSES}
        at = datetime.fromisoformat(lead["created_at"].replace("Z", "+00:00")) + timedelta(
            seconds=1
        )
        leadstatus.append_change(
            self.conn,
            lead,
            change_id=self.new_id(),
            type_="Created",
            outcome="New",
            category="Open",
            change_source="API",
            changed_at=iso(at),
            notes="Lead received through intake.",
        )
        for outcome in self.rng.choice(data.STATUS_PATHS):
            at += timedelta(hours=self.rng.uniform(2, 96))
            if at >= self.now:
                break
            self.change(lead, outcome, by_name[outcome], at, users, automation_ids)
        leadstatus.refresh_lead(self.conn, lead["id"], iso(at if at < self.now else self.now))

    def change(
        self,
        lead: dict[str, Any],
        outcome: str,
        category: str,
        at: datetime,
        users: list[str],
        automation_ids: list[str],
    ) -> None:
        by_automation = bool(automation_ids) and outcome == "Contacted" and self.rng.random() < 0.3
        extra: dict[str, Any] = {
            "notes": self.rng.choice(data.NOTES) if self.rng.random() < 0.6 else None,
            "changed_by_user_id": None if by_automation else self.rng.choice(users),
            "changed_by_automation_id": self.rng.choice(automation_ids) if by_automation else None,
            "assigned_to_user_id": self.rng.choice(users),
            "follow_up_status": self.rng.choice(("Pending", "Done", None)),
        }
        if outcome == "Contacted" and self.rng.random() < 0.4:
            extra["callback_at"] = iso(at + timedelta(days=self.rng.uniform(1, 4)))
        if outcome == "Appointment Set":
            start = at + timedelta(days=self.rng.randint(1, 6), hours=self.rng.randint(0, 6))
            extra.update(
                appointment_start_at=iso(start),
                appointment_end_at=iso(start + timedelta(hours=1)),
                appointment_notes="On-site assessment.",
            )
        if outcome in ("Lost", "Bad Number", "Duplicate"):
            extra["reason"] = {"Lost": "Went with a competitor", "Bad Number": "Disconnected"}.get(
                outcome, "Same phone as an earlier lead"
            )
        leadstatus.append_change(
            self.conn,
            lead,
            change_id=self.new_id(),
            type_="Automation" if by_automation else self.rng.choice(data.CHANGE_TYPES),
            outcome=outcome,
            category=category,
            change_source="Automation"
            if by_automation
            else self.rng.choice(("User", "User", "AI")),
            changed_at=iso(at),
            **extra,
        )


def seed_demo_data(conn: sqlite3.Connection, *, seed: int, now: datetime, secret: bytes) -> None:
    """Fill an empty state; the caller holds the write transaction."""
    s = Seeder(conn, seed, now, secret)
    org = s.organization("Lone Star Home Services", "Annual")
    other = s.organization("Prairie Solar Co.", "Monthly")
    owner = s.user(org, "Dana", "Whitfield", "lonestar-home.example", ["Owner", "Admin"])
    member = s.user(org, "Luis", "Ortega", "lonestar-home.example", ["Member"])
    viewer = s.user(org, "Priya", "Raman", "lonestar-home.example", ["ReadOnly"])
    other_owner = s.user(other, "Sam", "Keller", "prairie-solar.example", ["Owner"])
    for key, value in (
        ("demo_org_id", org),
        ("demo_user_id", owner),
        ("demo_member_user_id", member),
        ("demo_read_only_user_id", viewer),
        ("other_org_id", other),
        ("other_user_id", other_owner),
    ):
        set_meta(conn, key, value)
    s.org_key(org, owner)
    s.org_key(other, other_owner)
    tags = s.tags(org, data.TAG_NAMES)
    other_tags = s.tags(other, ("Solar", "Hot"))
    s.statuses(org)
    s.statuses(other)
    automation_ids = seed_activity(s, org, other, [owner, member])
    sources = {
        "web": s.source(
            org, owner, "Website form",
            description="Quote requests from lonestar-home.example.", tags=[tags["Web"]],
        ),
        "market": s.source(
            org, owner, "Solar Leads Marketplace",
            description="Purchased solar leads; consent certificate required.",
            states=["TX", "CA", "AZ", "FL", "NV"], products=["solar"], consent=True, cost=32.5,
            tags=[tags["Marketplace"], tags["Solar"]], rotated=True,
        ),
        "referral": s.source(
            org, member, "Referral partners",
            description="Roofing and HVAC referrals from partner contractors.",
            products=["roofing", "hvac", "windows"], cost=5.0, tags=[tags["Referral"]],
        ),
        "promo": s.source(
            org, owner, "Spring promo 2024", description="Retired landing page.", enabled=False,
            cost=12.0,
        ),
    }  # fmt: skip
    other_source = s.source(
        other, other_owner, "Prairie web form", description="Website.", tags=[other_tags["Solar"]]
    )
    _seed_leads(s, org, sources, tags, [owner, member], automation_ids)
    for _ in range(OTHER_LEADS):
        created = s.ago(s.rng.uniform(0.1, 60))
        lead = s.lead(
            other, source_id=other_source, state="KS", product="solar", created=created,
            tag_ids=[other_tags["Solar"]], consent=None, rejected=None,
        )  # fmt: skip
        s.history(lead, [other_owner], [])
    _received_at(conn)


def _seed_leads(
    s: Seeder,
    org: str,
    sources: dict[str, str],
    tags: dict[str, str],
    users: list[str],
    automation_ids: list[str],
) -> None:
    kinds = ["web"] * 4 + ["market"] * 3 + ["referral"] * 2 + [None]
    for _ in range(MAIN_LEADS):
        kind = s.rng.choice(kinds)
        created = s.ago(s.rng.uniform(0.02, 90))
        rejected = None
        tag_ids = [tags[name] for name in s.rng.sample(data.LEAD_TAGS, s.rng.randint(0, 2))]
        consent = None
        if kind == "market":
            state, product = s.rng.choice(("TX", "CA", "AZ", "FL", "NV")), "solar"
            consent = f"https://consent.example/certificates/{s.new_id()}"
            tag_ids += [tags["Marketplace"], tags["Solar"]]
            if s.rng.random() < 0.08:
                state = "OH"
                rejected = "state 'OH' is not in the source's allowedStates"
        elif kind == "referral":
            state, product = s.rng.choice(data.STATES), s.rng.choice(("roofing", "hvac", "windows"))
            tag_ids.append(tags["Referral"])
            if s.rng.random() < 0.08:
                product = "solar"
                rejected = "product 'solar' is not in the source's allowedProducts"
        else:
            state, product = s.rng.choice(data.STATES), s.rng.choice(data.PRODUCTS)
            if kind == "web":
                tag_ids.append(tags["Web"])
        if rejected:
            tag_ids = [t for t in tag_ids if t not in (tags["Marketplace"], tags["Referral"])]
        lead = s.lead(
            org, source_id=sources[kind] if kind else None, state=state, product=product,
            created=created, tag_ids=list(dict.fromkeys(tag_ids)), consent=consent,
            rejected=rejected,
        )  # fmt: skip
        if not rejected:
            s.history(lead, users, automation_ids)


def _received_at(conn: sqlite3.Connection) -> None:
    received = "(SELECT {}(created_at) FROM leads WHERE source_id = sources.id)"
    conn.execute(
        f"UPDATE sources SET first_lead_received_at = {received.format('MIN')}, "
        f"last_lead_received_at = {received.format('MAX')}"
    )
