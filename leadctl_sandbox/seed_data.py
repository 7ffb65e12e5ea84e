"""The fixed vocabulary the demo data is drawn from (names, places, messages)."""

from __future__ import annotations

FIRST_NAMES = (
    "Avery", "Blake", "Camila", "Darius", "Elena", "Farah", "Gavin", "Hana", "Isaac", "Jada",
    "Kenji", "Lucia", "Marcus", "Nadia", "Omar", "Paige", "Quinn", "Rosa", "Samir", "Tessa",
    "Uma", "Victor", "Wren", "Ximena", "Yusuf", "Zoe", "Andre", "Bianca", "Caleb", "Delia",
    "Emmett", "Fiona", "Graham", "Ivy", "Jonah", "Keira", "Leon", "Maya", "Noah", "Olivia",
)  # fmt: skip
LAST_NAMES = (
    "Alvarez", "Bennett", "Chen", "Dawson", "Estrada", "Fischer", "Garcia", "Hughes", "Ibarra",
    "Jensen", "Kowalski", "Lopez", "Mitchell", "Nguyen", "Okafor", "Patel", "Quintero", "Reyes",
    "Sullivan", "Turner", "Underwood", "Vargas", "Walker", "Xu", "Young", "Zimmerman", "Brooks",
    "Castillo", "Douglas", "Ellis", "Foster", "Gomez", "Hayes", "Irwin", "Jordan", "Kim",
)  # fmt: skip
EMAIL_DOMAINS = ("example.com", "example.net", "example.org", "mail.example")
STATES = ("TX", "CA", "AZ", "FL", "NV", "CO", "GA", "NC", "OH", "WA", "OK", "NM")
PRODUCTS = ("solar", "roofing", "hvac", "windows", "water-heater")
AREA_CODES = ("512", "737", "214", "713", "210", "469", "832", "915", "602", "305")
TAG_NAMES = (
    "Hot", "Warm", "Cold", "Solar", "Roofing", "HVAC", "Web", "Referral", "Marketplace",
    "Spanish speaking", "Callback requested",
)  # fmt: skip
LEAD_TAGS = ("Hot", "Warm", "Cold", "Spanish speaking", "Callback requested")
LEAD_STATUSES = (
    # name, color, category
    ("New", "#0ea5e9", "Open"),
    ("Contacted", "#6366f1", "Open"),
    ("Appointment Set", "#a855f7", "Qualified"),
    ("Quoted", "#f59e0b", "Qualified"),
    ("Won", "#10b981", "Converted"),
    ("Lost", "#64748b", "Lost"),
    ("Bad Number", "#e11d48", "Invalid"),
    ("Duplicate", "#94a3b8", "Duplicate"),
)
STATUS_PATHS = (
    ("Contacted",),
    ("Contacted", "Appointment Set"),
    ("Contacted", "Appointment Set", "Won"),
    ("Contacted", "Quoted", "Lost"),
    ("Contacted", "Quoted", "Won"),
    ("Bad Number",),
    ("Duplicate",),
    (),
)
CHANGE_TYPES = ("Call", "SMS", "Manual", "Email")
NOTES = (
    "Left a voicemail, will try again tomorrow.",
    "Homeowner asked for a quote by e-mail.",
    "Prefers texts after 5pm.",
    "Spoke with spouse; decision next week.",
    "Site visit confirmed.",
    "Number disconnected.",
    "Already working with another installer.",
)
SMS_TEXTS = (
    "Hi {name}, thanks for your request! When is a good time to talk?",
    "Reminder: your appointment is tomorrow at 10am.",
    "Your quote is ready, reply YES to receive it by e-mail.",
    "We tried to reach you, call us back at your convenience.",
    "Thanks for choosing us, {name}!",
)
INBOUND_TEXTS = ("Yes please", "Can you call me after 6?", "Sounds good", "Who is this?", "Thanks")
ANNOUNCEMENTS = (
    ("New: lead routing rules", "Route leads by state and product from the source settings.",
     "https://app.example.com/sources", "Open sources"),
    ("Scheduled maintenance", "Messaging pauses for 10 minutes on Sunday at 02:00 UTC.", "", ""),
    ("10DLC registration reminder", "Register your brand to keep SMS deliverability high.",
     "https://app.example.com/compliance", "Register"),
    ("Call recording is here", "Record outbound calls and play them back from the timeline.",
     "https://app.example.com/calls", "Try it"),
    ("Improved opt-out handling", "STOP replies now suppress the contact across all numbers.", "",
     ""),
    ("Automation run console", "See every step of an automation run, with reasons for skips.",
     "https://app.example.com/automations", "View runs"),
    ("Holiday sending hours", "Quiet hours apply on public holidays unless you opt out.", "", ""),
    ("New analytics dashboard", "Conversion by source and product, refreshed hourly.",
     "https://app.example.com/analytics", "Open analytics"),
    ("Wallet auto-recharge", "Top up your wallet automatically when the balance runs low.",
     "https://app.example.com/billing", "Set up"),
    ("Number warmup explained", "New numbers ramp up their limits over two weeks.", "", ""),
    ("Consent certificates", "Sources can now require a consent certificate on every lead.",
     "https://app.example.com/sources", "Learn more"),
    ("Mobile app update", "Reply to leads from the lock screen on iOS and Android.", "", ""),
)  # fmt: skip
AUTOMATIONS = (
    ("New lead welcome", "NewLead", "New lead received",
     (("Send welcome SMS", "SendSms", "Send SMS"), ("Wait 1 day", "Wait", "Wait"),
      ("Send follow-up SMS", "SendSms", "Send SMS"),
      ("Create call task", "CreateTask", "Create task"))),
    ("Missed call text-back", "MissedCall", "Missed inbound call",
     (("Send text-back", "SendSms", "Send SMS"), ("Notify owner", "Notify", "Notify user"))),
    ("Appointment reminder", "StatusChanged", "Status changed to Appointment Set",
     (("Wait until day before", "Wait", "Wait"), ("Send reminder SMS", "SendSms", "Send SMS"),
      ("Place confirmation call", "PlaceCall", "Place call"))),
)  # fmt: skip
