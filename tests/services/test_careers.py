"""Job openings and applications: field rules, files checked by content and stored privately, HR notified."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Invalid, NotFound, PayloadTooLarge, TooManyRequests
from app.models.careers import JobApplication, JobOpening
from app.models.enums import EmployeeType, Role
from app.models.system import EmailOutbox
from app.services.careers import careers
from app.services.platform import files, mail
from tests import factories as f

STAFF = "office@coastline.example"


def make_pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Jordan Lee - Resume")
    return bytes(pdf.output())


def make_docx() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml", "<w:document><w:body><w:p>Cover letter</w:p></w:body></w:document>")
    return buf.getvalue()


def make_doc() -> bytes:
    # An OLE2 compound file whose directory names the WordDocument stream (enough for the content check).
    return bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 504 + "WordDocument".encode("utf-16-le") + b"\0" * 100


def make_plain_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("payload.exe", "MZ")
    return buf.getvalue()


EXE = b"MZ\x90\x00\x03\x00\x00\x00" + b"\0" * 200 + b"This program cannot be run in DOS mode."


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(settings, "data_dir", tmp_path)
    monkeypatch.setattr(settings, "staff_notify_email", STAFF)
    return tmp_path


@pytest.fixture
def pdf() -> bytes:
    return make_pdf()


@pytest.fixture
def job(session: Session) -> JobOpening:
    row = JobOpening(
        code="JOB-001",
        title="Senior Full-Stack Developer",
        department="Engineering",
        location="Remote / San Francisco",
        salary="$120k - $160k",
    )
    session.add(row)
    session.commit()
    return row


def application(pdf: bytes, **overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "job_code": "JOB-001",
        "first_name": "Jordan",
        "last_name": "Lee",
        "phone": "+1 (772) 555-0199",
        "email": "jordan@example.com",
        "linkedin_url": "https://www.linkedin.com/in/jordanlee",
        "resume": ("Jordan Lee CV.pdf", pdf),
        "cover_letter": None,
        "ip": "203.0.113.20",
    }
    return {**data, **overrides}


def refused(s: Session, pdf: bytes, **overrides: Any) -> Invalid:
    with pytest.raises(Invalid) as exc:
        careers.submit_application(s, **application(pdf, **overrides))
    assert s.exec(select(JobApplication)).first() is None
    return exc.value


def stored_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_open_jobs_and_lookup(session: Session, job: JobOpening) -> None:
    session.add(JobOpening(code="JOB-009", title="Closed", department="X", location="Y", is_active=False))
    session.commit()
    assert [j.id for j in careers.list_open_jobs(session)] == ["JOB-001"]
    found = careers.get_job(session, "JOB-001")
    assert found is not None and found.title == "Senior Full-Stack Developer" and found.type == "Full-time"
    assert careers.get_job(session, "JOB-009") is None and careers.get_job(session, "nope") is None


def test_application_with_pdf_and_docx_is_stored_privately(
    session: Session, job: JobOpening, pdf: bytes, data_dir: Path
) -> None:
    docx = make_docx()
    app = careers.submit_application(session, **application(pdf, cover_letter=("letter.docx", docx)))
    stored = session.get(JobApplication, app.id)
    assert stored is not None and stored.job_opening_id == job.id and stored.job_code == "JOB-001"
    assert stored.resume_filename == "Jordan Lee CV.pdf" and stored.resume_content_type == "application/pdf"
    assert stored.cover_letter_content_type == files.DOCX.content_type
    # Random names under DATA_DIR/applications, nothing of the uploader's name, and readable back.
    assert stored.resume_path.startswith("applications/") and "Jordan" not in stored.resume_path
    assert stored.cover_letter_path is not None and stored.cover_letter_path.endswith(".docx")
    assert [p.relative_to(data_dir).as_posix() for p in stored_files(data_dir)] == sorted(
        [stored.resume_path, stored.cover_letter_path]
    )
    with files.open_private(stored.resume_path) as fh:
        assert fh.read() == pdf
    with files.open_private(stored.cover_letter_path) as fh:
        assert fh.read() == docx


def test_doc_files_are_accepted(session: Session, job: JobOpening, pdf: bytes) -> None:
    app = careers.submit_application(session, **application(pdf, resume=("cv.doc", make_doc())))
    assert app.resume_content_type == "application/msword" and app.resume_path.endswith(".doc")


def test_unknown_job_code_is_a_generic_application(session: Session, pdf: bytes) -> None:
    app = careers.submit_application(session, **application(pdf, job_code="JOB-404"))
    assert app.job_opening_id is None and app.job_code == "JOB-404"
    app2 = careers.submit_application(session, **application(pdf, job_code="", ip="198.51.100.2"))
    assert app2.job_code is None


def test_hr_staff_and_the_applicant_are_mailed(session: Session, job: JobOpening, pdf: bytes) -> None:
    hr = f.user(session, "hanna", role=Role.employee, employee_type=EmployeeType.hr)
    f.user(session, "hugo", role=Role.employee, employee_type=EmployeeType.hr, is_verified=False)
    f.user(session, "devon", role=Role.employee, employee_type=EmployeeType.developer)
    f.user(session, "clara", role=Role.client)
    careers.submit_application(session, **application(pdf))
    mails = list(session.exec(select(EmailOutbox).order_by(col(EmailOutbox.id))).all())
    assert sorted(m.to_address for m in mails) == sorted([hr.email, STAFF, "jordan@example.com"])
    to_hr = next(m for m in mails if m.to_address == hr.email)
    assert "Jordan Lee" in to_hr.subject and "Senior Full-Stack Developer" in to_hr.subject
    assert "/admin" in to_hr.body_text and "not attached" in to_hr.body_text
    to_applicant = next(m for m in mails if m.to_address == "jordan@example.com")
    assert "Senior Full-Stack Developer" in to_applicant.body_text


@pytest.mark.parametrize(
    ("overrides", "field", "field_message"),
    [
        ({"first_name": "  "}, "firstName", "First name is required"),
        ({"last_name": ""}, "lastName", "Last name is required"),
        ({"phone": " "}, "phone", "Phone number is required"),
        ({"email": ""}, "email", "Email is required"),
        ({"resume": None}, "resume", "Please upload your resume"),
        ({"resume": ("", b"")}, "resume", "Please upload your resume"),
    ],
)
def test_missing_required_fields(
    session: Session, pdf: bytes, overrides: dict[str, Any], field: str, field_message: str, data_dir: Path
) -> None:
    exc = refused(session, pdf, **overrides)
    assert exc.message == "Please fill in all required fields and upload your resume."
    assert exc.errors == {field: field_message}
    assert stored_files(data_dir) == []


@pytest.mark.parametrize(
    ("overrides", "message", "errors"),
    [
        ({"email": "jordan@"}, "Please enter a valid email address.", {"email": "Please enter a valid email address."}),
        (
            {"linkedin_url": "javascript:alert(1)"},
            "Please check the highlighted fields.",
            {"linkedinProfile": "Please enter a valid web address, starting with https://"},
        ),
        (
            {"first_name": "x" * 101},
            "Please check the highlighted fields.",
            {"firstName": "First name must not exceed 100 characters"},
        ),
        ({"phone": "phone me"}, "Please check the highlighted fields.", {"phone": "Please enter a valid phone number"}),
    ],
)
def test_invalid_fields(
    session: Session, pdf: bytes, overrides: dict[str, Any], message: str, errors: dict[str, str]
) -> None:
    exc = refused(session, pdf, **overrides)
    assert (exc.message, exc.errors) == (message, errors)


def test_a_renamed_executable_is_refused(session: Session, pdf: bytes, data_dir: Path) -> None:
    exc = refused(session, pdf, resume=("resume.pdf", EXE))
    assert exc.message == "Please upload only PDF, DOC, or DOCX files."
    assert exc.errors == {"resume": "Please upload only PDF, DOC, or DOCX files."}
    exc = refused(session, pdf, cover_letter=("letter.docx", EXE))
    assert exc.errors == {"coverLetter": "Please upload only PDF, DOC, or DOCX files."}
    assert stored_files(data_dir) == []


@pytest.mark.parametrize(
    ("filename", "content"),
    [
        ("cv.exe", make_pdf()),  # right content, wrong name
        ("cv.docx", b"PK\x03\x04 not really a zip"),
        ("cv.docx", make_plain_zip()),  # a zip, but not a Word document
        ("cv.doc", bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 600),  # an OLE2 file that is not Word (e.g. .msi)
    ],
)
def test_content_decides_the_type(session: Session, pdf: bytes, filename: str, content: bytes) -> None:
    exc = refused(session, pdf, resume=(filename, content))
    assert exc.errors == {"resume": "Please upload only PDF, DOC, or DOCX files."}


def test_an_empty_file_is_refused(session: Session, pdf: bytes) -> None:
    exc = refused(session, pdf, resume=("cv.pdf", b""))
    assert exc.message == exc.errors["resume"] == "The uploaded file is empty."


def test_an_oversized_file_is_refused_with_413(session: Session, pdf: bytes, data_dir: Path) -> None:
    big = b"%PDF-1.7\n" + b"0" * (10 * 1024 * 1024)
    with pytest.raises(PayloadTooLarge) as exc:
        careers.submit_application(session, **application(pdf, cover_letter=("letter.pdf", big)))
    assert exc.value.status_code == 413
    assert exc.value.message == "File too large: the maximum is 10 MB per file."
    assert stored_files(data_dir) == []


def test_files_are_deleted_when_the_database_write_fails(
    session: Session, job: JobOpening, pdf: bytes, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing_commit() -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(session, "commit", failing_commit)
    with pytest.raises(RuntimeError):
        careers.submit_application(session, **application(pdf, cover_letter=("letter.docx", make_docx())))
    monkeypatch.undo()
    assert stored_files(data_dir) == []
    assert session.exec(select(JobApplication)).first() is None


def test_per_ip_limit_counts_only_stored_applications(session: Session, pdf: bytes) -> None:
    refused(session, pdf, first_name="")
    for _ in range(5):
        careers.submit_application(session, **application(pdf))
    with pytest.raises(TooManyRequests):
        careers.submit_application(session, **application(pdf))


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", "applications/../secret.pdf", "/etc/passwd", "applications/ABC.pdf", ""]
)
def test_private_files_cannot_be_reached_by_path_traversal(name: str) -> None:
    with pytest.raises(NotFound):
        files.open_private(name)


def test_stored_files_are_private_to_the_server_process(pdf: bytes, data_dir: Path) -> None:
    stored = files.store("cv.pdf", pdf)
    path = data_dir / stored.name
    assert path.stat().st_mode & 0o077 == 0
    assert not any(p.name.endswith(".tmp") for p in (data_dir / "applications").iterdir())
    files.delete(stored.name)
    assert not path.exists()


def test_application_mails_count_against_the_public_caps(
    session: Session, job: JobOpening, pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone can apply: the applicant's receipt and HR's notification are public mail, capped per recipient (HR's
    inbox, the company's own, by the higher cap of staff inboxes)."""
    caps = {"jordan@example.com": settings.public_mail_per_recipient_per_day, STAFF: 15}
    monkeypatch.setattr(settings, "public_mail_per_staff_inbox_per_day", caps[STAFF])
    for address, cap in caps.items():
        for _ in range(cap):
            mail.enqueue(session, to=address, letter=mail.Letter("s", "t"), public=True)
    session.commit()
    careers.submit_application(session, **application(pdf))
    for address, cap in caps.items():
        assert len(session.exec(select(EmailOutbox).where(EmailOutbox.to_address == address)).all()) == cap
    assert session.exec(select(JobApplication)).one()  # the application itself is stored as always


def test_applications_count_an_ipv6_subscriber_by_its_64(session: Session, job: JobOpening, pdf: bytes) -> None:
    """Every address of one /64 is one subscriber: rotating through them does not pass the per-address limit."""
    for n in range(careers.PER_IP[0]):
        careers.submit_application(session, **application(pdf, email=f"a{n}@example.com", ip=f"2001:db8:5::{n + 1:x}"))
    with pytest.raises(TooManyRequests):
        careers.submit_application(session, **application(pdf, email="late@example.com", ip="2001:db8:5::ff"))
    careers.submit_application(session, **application(pdf, email="other@example.com", ip="2001:db8:6::1"))
