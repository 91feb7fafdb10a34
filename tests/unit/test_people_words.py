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
