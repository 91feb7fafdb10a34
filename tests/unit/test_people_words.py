"""People's words, not codes, in the staff panel (issue 26 point 7)."""

from __future__ import annotations

import re
from pathlib import Path

from app.core.permissions import PERM_DESCRIPTIONS, Perm
from app.ui.admin.settings.state import action_words

APP = Path(__file__).resolve().parents[2] / "app"


def test_audit_actions_read_as_words() -> None:
    assert action_words("auth.login") == "Signed in"
    assert action_words("invoice.issue") == "Invoice issued"
    assert action_words("meeting_type.save") == "Meeting type saved"
    assert action_words("project.time_logged") == "Time logged"
    assert action_words("organization.delete") == "Organization deleted"
    # The website's records are named in the action itself (f"site.{key}.update"): no dot is left over.
    assert action_words("site.services.update") == "Website services updated"
    assert action_words("site.job_openings.create") == "Website job openings created"


def test_an_audit_entry_names_its_record_and_changes_in_words() -> None:
    from app.services.platform.audit import AuditEntry
    from app.ui.admin.settings.state import audit_row
    from tools.dev.page_checks import raw_codes

    def row(table: str, details: dict[str, object]) -> str:
        entry = AuditEntry(
            id=1, created_at="2026-11-28T14:00:00+00:00", actor_id=None, actor="admin", action="inquiry.update",
            entity_type=table, entity_id="2077d449-aaaa", details=details, ip_address="127.0.0.1",
        )  # fmt: skip
        shown = audit_row(entry)
        return f"{shown.when} {shown.action} {shown.record} {shown.summary}"

    to = {"status": "in_progress", "is_spam": "False", "assigned_to": "None"}
    changed = row("contact_inquiries", {"from": {}, "to": to})
    assert "Contact inquiry #2077d449" in changed
    assert "status → in progress, is spam → no, assigned to → (empty)" in changed
    assert raw_codes(changed) == []
    fields = row("users", {"fields": ["first_name", "employee_type"]})
    assert "User #2077d449 first name, employee type" in fields and raw_codes(fields) == []


def test_every_action_the_code_records_reads_without_dots_or_underscores() -> None:
    recorded = set()
    for path in APP.rglob("*.py"):
        recorded |= set(re.findall(r'action="([a-z_]+\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    assert len(recorded) > 40  # the scan found the audit calls
    for action in recorded:
        words = action_words(action)
        assert "." not in words and "_" not in words and words[0].isupper(), (action, words)


def test_every_permission_has_words_to_show() -> None:
    assert set(PERM_DESCRIPTIONS) == set(Perm)


def test_an_inquirys_budget_reads_as_the_contact_form_offered_it() -> None:
    from app.services.crm.admin_inquiries import InquiryView
    from app.ui.admin.inquiries.state import inquiry_row

    fields = dict.fromkeys(InquiryView.model_fields)
    base = {**fields, "id": 1, "name": "Ann", "email": "ann@example.com", "status": "new", "priority": "medium"}
    for stored, shown in (("1.2k-3k", "$1,200 - $3,000"), ("1.2k-5k", "$1,200 - $3,000"), ("3k-5k", "$3,000 - $5,000")):
        row = inquiry_row(InquiryView.model_construct(**{**base, "budget": stored, "service_type": "cloud-solutions"}))
        assert (row.budget, row.service) == (shown, "Web Development and Hosting")


def test_the_account_pages_wear_the_sites_logo() -> None:
    """Issue 26: /register, /profile and the sign-in pages had a letter in a square instead of the site's logo."""
    from app.ui.auth.layout import auth_layout
    from app.ui.components.logo import LOGO_MARK_SRC, logo_link

    page = str(auth_layout())
    assert f'src:"{LOGO_MARK_SRC}"' in page and str(logo_link()) in page
