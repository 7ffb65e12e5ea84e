"""User (the answer of PUT /users/compliance) and the records it holds.

Records whose fields the reference does not show (consent certificates, mobile device
preferences, dunning info) are kept as they came: plain JSON in the model's extras or
an untyped value, never dropped.
"""

from __future__ import annotations

from typing import Any

from leadctl.models.base import (
    Flag,
    IdNamePair,
    Instant,
    Integer,
    Obj,
    Objs,
    Resource,
    Text,
    Texts,
)


class UserCompliance(Resource):
    accepted_terms: Flag = None
    accepted_to_subscription: Flag = None
    accepted_sms: Flag = None
    accepted_baa: Flag = None
    accepted_email: Flag = None
    # Record fields: not shown by the reference.
    consent_certificates: list[Any] | None = None


class UserIdentity(Resource):
    # All three are required by the reference; a view shows what is there.
    issuer: Text = None
    issuer_assigned_id: Text = None
    sign_in_type: Text = None


class UserNotificationPreferences(Resource):
    sms_consent_opted_in: Flag = None
    sms_consent_updated_at: Instant = None
    sms_consent_certificate: Any = None  # record fields not shown
    payment_failed_enabled: Flag = None
    payment_failed_sms_enabled: Flag = None
    low_wallet_balance_enabled: Flag = None
    low_wallet_balance_email_enabled: Flag = None
    low_wallet_balance_sms_enabled: Flag = None
    ten_dlc_status_enabled: Flag = None
    new_lead_enabled: Flag = None
    new_lead_email_enabled: Flag = None
    new_lead_sms_enabled: Flag = None
    missed_call_enabled: Flag = None
    missed_call_email_enabled: Flag = None
    missed_call_sms_enabled: Flag = None
    unread_sms_enabled: Flag = None
    unread_sms_email_enabled: Flag = None
    unread_sms_sms_enabled: Flag = None
    automation_failed_enabled: Flag = None
    automation_failed_email_enabled: Flag = None
    automation_failed_sms_enabled: Flag = None
    billing_email_enabled: Flag = None
    billing_sms_enabled: Flag = None
    # Fields after billingSmsEnabled: not shown; kept as extras.


class OrganizationBillingState(Resource):
    has_payment_provider_customer: Flag = None
    has_payment_method: Flag = None
    phone_number_quantity: Integer = None
    organization_member_quantity: Integer = None
    organization_member_assigned_quantity: Integer = None
    pending_billing_plan: Text = None  # Annual, Monthly
    billing_plan_change_effective_at: Instant = None
    plan_renewal_at: Instant = None
    plan_period_start_at: Instant = None
    cancel_at: Instant = None
    dunning: Any = None  # OrganizationDunningInfo: fields not shown
    last_subscription_event_at: Instant = None
    last_payment_method_event_at: Instant = None


class User(Resource):
    id: Text = None
    name: Text = None
    email: Text = None
    first_name: Text = None
    last_name: Text = None
    phone: Text = None
    time_zone_id: Text = None
    # Enumerated by the reference, yet Text: a value added later is shown, not refused.
    billing_plan: Text = None  # Annual, Monthly
    subscription_status: Text = None  # Pending, Active, Overdue, Canceled
    billing_state: Obj[OrganizationBillingState] = None
    roles: Texts = None
    identities: Objs[UserIdentity] = None
    current_organization: Obj[IdNamePair] = None
    compliance: Obj[UserCompliance] = None
    notification_preferences: Obj[UserNotificationPreferences] = None
    mobile_device_preferences: list[Any] | None = None  # fields not shown
    last_logged_in_at: Instant = None
    personal_data_deletion_requested_at: Instant = None
    personal_data_deleted_at: Instant = None
    personal_data_deletion_status: Text = None
    personal_data_deletion_reason: Text = None
    created_at: Instant = None
    modified_at: Instant = None
