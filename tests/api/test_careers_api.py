"""Careers over HTTP: open jobs, and the multipart application with valid, invalid, oversized and disguised files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session, col, select

from app.core.config import settings
from app.models.careers import JobApplication, JobOpening
from app.models.system import EmailOutbox
from app.services.platform import files, mail
from tests.services.test_careers import EXE, make_docx, make_pdf
from tests.services.test_mail import smtp_settings
from tests.smtp_sink import SmtpSink

FILE_TYPES = "Please upload only PDF, DOC, or DOCX files."


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(settings, "data_dir", tmp_path)
    return tmp_path


@pytest.fixture
def job(session: Session) -> JobOpening:
    row = JobOpening(code="JOB-001", title="Senior Full-Stack Developer", department="Engineering", location="Remote")
    session.add(row)
    session.commit()
    return row


def fields(**overrides: str) -> dict[str, str]:
    data = {
        "firstName": "Jordan",
        "lastName": "Lee",
        "phone": "772-555-0199",
        "email": "jordan@example.com",
        "linkedinProfile": "",
        "jobId": "JOB-001",
    }
    return {**data, **overrides}


def submit(client: TestClient, data: dict[str, str] | None = None, **uploads: Any) -> Any:
    if not uploads:
        uploads = {"resume": ("cv.pdf", make_pdf(), "application/pdf")}
    return client.post("/api/applications/submit", data=data or fields(), files=uploads)


def test_jobs_are_listed(client: TestClient, job: JobOpening) -> None:
    r = client.get("/api/jobs")
    assert r.status_code == 200 and [j["id"] for j in r.json()["data"]] == ["JOB-001"]


def test_valid_application_answers_201(client: TestClient, session: Session, job: JobOpening) -> None:
    docx = make_docx()
    r = submit(
        client,
        resume=("cv.pdf", make_pdf(), "application/pdf"),
        coverLetter=("letter.docx", docx, "application/octet-stream"),
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["message"] == "Application Submitted!"
    stored = session.get(JobApplication, body["id"])
    assert stored is not None and stored.job_opening_id == job.id and stored.cover_letter_path is not None
    with files.open_private(stored.cover_letter_path) as fh:
        assert fh.read() == docx


def test_missing_fields_and_resume(client: TestClient, session: Session) -> None:
    r = client.post("/api/applications/submit", data=fields(firstName=" ", email=""))
    assert r.status_code == 422
    assert r.json()["message"] == "Please fill in all required fields and upload your resume."
    assert set(r.json()["errors"]) == {"firstName", "email", "resume"}
    assert session.exec(select(JobApplication)).first() is None


def test_browser_style_empty_file_part_counts_as_missing(client: TestClient) -> None:
    r = submit(client, resume=("", b"", "application/octet-stream"))
    assert r.status_code == 422 and r.json()["errors"] == {"resume": "Please upload your resume"}


def test_invalid_email(client: TestClient) -> None:
    r = submit(client, fields(email="jordan@@example"))
    assert r.status_code == 422
    assert r.json() == {
        "message": "Please enter a valid email address.",
        "errors": {"email": "Please enter a valid email address."},
    }


def test_disguised_executable_is_refused(client: TestClient, data_dir: Path) -> None:
    r = submit(client, resume=("resume.pdf", EXE, "application/pdf"))
    assert r.status_code == 422
    assert r.json() == {"message": FILE_TYPES, "errors": {"resume": FILE_TYPES}}
    assert not any(p.is_file() for p in data_dir.rglob("*"))


def test_empty_file_is_refused(client: TestClient) -> None:
    r = submit(client, resume=("cv.pdf", b"", "application/pdf"))
    assert r.status_code == 422 and r.json()["message"] == "The uploaded file is empty."


def test_oversized_file_answers_413(client: TestClient, session: Session, data_dir: Path) -> None:
    big = b"%PDF-1.7\n" + b"0" * (10 * 1024 * 1024)
    r = submit(client, resume=("cv.pdf", big, "application/pdf"))
    assert r.status_code == 413
    assert r.json()["message"] == "File too large: the maximum is 10 MB per file."
    assert session.exec(select(JobApplication)).first() is None
    assert not any(p.is_file() for p in data_dir.rglob("*"))


def test_a_file_exactly_at_the_cap_is_accepted(client: TestClient) -> None:
    pdf = make_pdf()
    exact = pdf + b"\n" * (files.max_bytes() - len(pdf))
    assert submit(client, resume=("cv.pdf", exact, "application/pdf")).status_code == 201


def test_rate_limit_answers_429(client: TestClient) -> None:
    for _ in range(5):
        assert submit(client).status_code == 201
    r = submit(client)
    assert r.status_code == 429 and "Too many applications" in r.json()["message"]


@pytest.mark.parametrize("job_id", ["JOB-9\r\nBcc: attacker@example.com", "J\r\nBcc:x@evil.test"])
def test_line_breaks_in_an_application_never_reach_a_mail_header(
    client: TestClient, session: Session, monkeypatch: pytest.MonkeyPatch, job_id: str
) -> None:
    monkeypatch.setattr(settings, "staff_notify_email", "hr@coastline.example")
    r = submit(client, fields(jobId=job_id, firstName="Jordan\u2028Bcc: attacker@example.com"))
    assert r.status_code == 201, r.text
    queued = session.exec(select(EmailOutbox).order_by(col(EmailOutbox.id))).all()
    assert [row.to_address for row in queued] == ["hr@coastline.example", "jordan@example.com"]
    assert all(row.subject.isprintable() for row in queued)
    assert "Bcc:" in queued[0].subject  # kept as harmless text, on the one line
    sink = SmtpSink().start()
    try:
        assert mail.deliver_pending(session, cfg=smtp_settings(sink.port)) == 2
    finally:
        sink.stop()
    assert sink.recipients == [["hr@coastline.example"], ["jordan@example.com"]]
    assert [m["Subject"] for m in sink.messages] == [row.subject for row in queued]
    assert all(m["Bcc"] is None and m["Cc"] is None for m in sink.messages)
