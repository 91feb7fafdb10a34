"""The raw-code detector that `make screenshots` and the browser crawler apply to every page (issue 26)."""

from __future__ import annotations

import pytest

from tools.dev.page_checks import raw_codes


@pytest.mark.parametrize(
    ("text", "kind", "code"),
    [
        ("Permissions: users:read, billing:write", "permission key", "users:read"),
        ("Role grants billing:write.", "permission key", "billing:write"),
        ("Jane Doe auth.login 10:30 AM", "dotted code", "auth.login"),
        ("Action: invoice.issue", "dotted code", "invoice.issue"),
        ("Meeting type: meeting_type.save", "dotted code", "meeting_type.save"),
        ("Status in_progress", "snake_case code", "in_progress"),
        ("Type: sales_lead.", "snake_case code", "sales_lead"),
        ("Status: IN_PROGRESS", "snake_case code", "IN_PROGRESS"),
        ("Status MeetingStatus.scheduled", "enum value", "MeetingStatus.scheduled"),
        ("Status MeetingStatus.SCHEDULED", "enum value", "MeetingStatus.SCHEDULED"),
        ("Role: Role.admin", "enum value", "Role.admin"),
        ("Created 2026-11-28T14:00:00+00:00", "ISO timestamp", "2026-11-28T14"),
        ("Phone: None", "missing value", "None"),
        ("Company null", "missing value", "null"),
        ("Total $undefined", "missing value", "undefined"),
        ("Amount $NaN", "missing value", "NaN"),
        ("Client [object Object]", "missing value", "[object Object]"),
    ],
)
def test_each_kind_of_raw_code_is_flagged(text: str, kind: str, code: str) -> None:
    found = raw_codes(text)
    assert any(f.startswith(f"{kind} {code!r}") for f in found), found


@pytest.mark.parametrize(
    "text",
    [
        "Meeting at 10:30 AM, ends 11:00 (EST). Duration 1:30.",
        "Add a note, e.g. what was agreed; i.e. the scope. Mr. Smith met Dr. Jones at 9 a.m.",
        "Open https://example.com/careers/apply_now?job=JOB-001 or www.example.com for details.",
        "Write to first_last@example.com or support@acme.co.uk.",
        "Download invoice.pdf, the export clients_2026.csv, or cv_jane_doe.docx.",
        "Total $3,000.00 - $5,000.00; 12.5% tax; version 1.2.3.",
        "Invoice INV-2026-0001 issued Nov 28, 2026. Status: In progress. No meetings yet.",
        "Sales Lead · Human Resources · Founder / CEO",
        "Built with React, Next.js, Node.js and vue.js; Power BI and ASP.NET.",
        "Time zone America/New_York (EST, UTC-05:00)",
        "Note: the team. Nothing else. See Example.com or Acme.Inc",
        "",
    ],
)
def test_normal_prose_is_not_flagged(text: str) -> None:
    assert raw_codes(text) == []


def test_allowed_words_are_data_not_codes() -> None:
    text = "Signed in as staff_hr (staff_hr@example.com); Created by staff_sales_lead"
    assert raw_codes(text, allowed={"staff_hr", "staff_sales_lead"}) == []
    assert [f.split(" in ")[0] for f in raw_codes(text)] == [
        "snake_case code 'staff_hr'",
        "snake_case code 'staff_sales_lead'",
    ]


def test_each_finding_says_where_it_is() -> None:
    (finding,) = raw_codes("A long line of text before the code users:read and after it")
    assert finding == "permission key 'users:read' in 'of text before the code users:read and after it'"
