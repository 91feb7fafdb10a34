"""HR's side of job applications: listing per opening, authenticated CV downloads, the workflow and its e-mails."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from fpdf import FPDF
from sqlmodel import Session, select

from app.models.careers import JobApplication, JobOpening
from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox
from app.models.user import User
from app.services.accounts import sessions
from app.services.platform import files
from tests import factories as f


def pdf_bytes(text: str) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.cell(0, 10, text)
    return bytes(pdf.output())


@pytest.fixture
def application(session: Session) -> JobApplication:
    stored = files.store("Jane Doe CV.pdf", pdf_bytes("Jane Doe resume"), field="resume")
    opening = session.exec(select(JobOpening).where(JobOpening.code == "JOB-001")).first() or JobOpening(
        code="JOB-001", title="Senior Full-Stack Developer", department="Engineering", location="Remote"
    )
    session.add(opening)
    session.flush()
    row = JobApplication(
        job_opening_id=opening.id,
        job_code="JOB-001", first_name="Jane", last_name="Doe", email="jane@example.com", phone="7725550100",
        resume_path=stored.name, resume_filename=stored.filename, resume_content_type=stored.content_type,
    )  # fmt: skip
    session.add(row)
    session.commit()
    return row


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_hr_lists_downloads_and_moves_an_application(
    client: TestClient, session: Session, application: JobApplication
) -> None:
    as_user(client, session, f.user(session, "hr_apps", role=Role.employee, employee_type=EmployeeType.hr))
    listed = client.get("/api/admin/applications", params={"job_code": "JOB-001"}).json()["data"]
    assert [(a["first_name"], a["status"], a["next_statuses"]) for a in listed] == [
        ("Jane", "new", ["rejected", "reviewing"])
    ]
    cv = client.get(f"/api/admin/applications/{application.id}/resume")
    assert cv.status_code == 200 and cv.content.startswith(b"%PDF-")
    assert cv.headers["content-type"] == "application/pdf" and "attachment" in cv.headers["content-disposition"]
    assert client.get(f"/api/admin/applications/{application.id}/cover-letter").status_code == 404

    skip = client.put(f"/api/admin/applications/{application.id}", json={"status": "offer"})
    assert skip.status_code == 422 and "cannot move to offer" in skip.json()["message"]
    for step in ("reviewing", "interview"):
        r = client.put(f"/api/admin/applications/{application.id}", json={"status": step, "notes": f"now {step}"})
        assert r.status_code == 200 and r.json()["data"]["status"] == step
    invite = session.exec(select(EmailOutbox).where(EmailOutbox.to_address == "jane@example.com")).one()
    assert invite.subject.startswith("Interview invitation")
    # The opening by the title the applicant saw, not its code (issue 26).
    assert "for the Senior Full-Stack Developer position" in invite.body_text and "JOB-001" not in invite.body_text
    client.put(f"/api/admin/applications/{application.id}", json={"status": "rejected"})
    subjects = [
        m.subject for m in session.exec(select(EmailOutbox).where(EmailOutbox.to_address == "jane@example.com"))
    ]
    assert len(subjects) == 2 and subjects[1].startswith("Your application")
    assert client.put(f"/api/admin/applications/{application.id}", json={"status": "reviewing"}).status_code == 422


def test_applications_are_for_hr_and_admins_only(
    client: TestClient, session: Session, application: JobApplication
) -> None:
    as_user(client, session, f.user(session, "sales_apps", role=Role.employee, employee_type=EmployeeType.sales_lead))
    assert client.get("/api/admin/applications").status_code == 403
    assert client.get(f"/api/admin/applications/{application.id}/resume").status_code == 403
    as_user(client, session, f.user(session, "client_apps"))
    assert client.get(f"/api/admin/applications/{application.id}/resume").status_code == 403
    client.cookies.clear()
    assert client.get(f"/api/admin/applications/{application.id}/resume").status_code == 401
