"""Open positions and job applications: validation, private file storage, and the e-mails to HR and the applicant.

Field errors are keyed by the spec's form names (firstName, lastName, phone, email, linkedinProfile, resume,
coverLetter), which both the API and the Reflex form use.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Invalid, TooManyRequests
from app.core.net import network
from app.core.permissions import EmployeeType, Role
from app.models.careers import JobApplication, JobOpening
from app.models.user import User
from app.services.platform import files, letters, mail, ratelimit
from app.services.platform.rules import normalize_email, one_line, phone_problem

log = logging.getLogger(__name__)

Upload = tuple[str, bytes]  # (the uploader's file name, its content)

MISSING = "Please fill in all required fields and upload your resume."
INVALID_EMAIL = "Please enter a valid email address."
CHECK_FIELDS = "Please check the highlighted fields."
TOO_MANY = "Too many applications from your address. Please try again later."
SUBMITTED = "Application Submitted!"
PER_IP = (5, timedelta(hours=1))
REQUIRED = {
    "firstName": "First name is required",
    "lastName": "Last name is required",
    "phone": "Phone number is required",
    "email": "Email is required",
    "resume": "Please upload your resume",
}


class JobPublic(BaseModel):
    """An open position as the site and GET /api/jobs show it; `id` is its public job id (JOB-001)."""

    id: str
    title: str
    department: str
    location: str
    type: str
    salary: str | None
    description: str | None
    requirements: list[str]
    benefits: list[str]


def job_public(j: JobOpening) -> JobPublic:
    return JobPublic(
        id=j.code,
        title=j.title,
        department=j.department,
        location=j.location,
        type=j.employment_type,
        salary=j.salary,
        description=j.description,
        requirements=list(j.requirements),
        benefits=list(j.benefits),
    )


def list_open_jobs(s: Session) -> list[JobPublic]:
    """Active openings in display order (public)."""
    query = select(JobOpening).where(col(JobOpening.is_active).is_(True))
    rows = s.exec(query.order_by(col(JobOpening.sort_order), col(JobOpening.id))).all()
    return [job_public(j) for j in rows]


def get_job(s: Session, code: str | None) -> JobPublic | None:
    """The active opening with this public id, or None (the apply page then shows its generic prompt)."""
    code = (code or "").strip()
    if not code:
        return None
    job = s.exec(select(JobOpening).where(JobOpening.code == code, col(JobOpening.is_active).is_(True))).first()
    return job_public(job) if job else None


def _text(value: str | None, field: str, errors: dict[str, str], label: str, limit: int) -> str:
    value = one_line(value)
    if len(value) > limit:
        errors[field] = f"{label} must not exceed {limit} characters"
    return value


def _linkedin(value: str | None, errors: dict[str, str]) -> str | None:
    url = (value or "").strip()
    if not url:
        return None
    parts = urlsplit(url)
    if len(url) > 500 or parts.scheme not in ("http", "https") or not parts.netloc or " " in url:
        errors["linkedinProfile"] = "Please enter a valid web address, starting with https://"
        return None
    return url


def _check_fields(
    *, first_name: str, last_name: str, phone: str, email: str, linkedin_url: str | None, has_resume: bool
) -> tuple[dict[str, Any], dict[str, str]]:
    errors: dict[str, str] = {}
    values: dict[str, Any] = {
        "first_name": _text(first_name, "firstName", errors, "First name", 100),
        "last_name": _text(last_name, "lastName", errors, "Last name", 100),
        "phone": one_line(phone),
        "linkedin_url": _linkedin(linkedin_url, errors),
    }
    if values["phone"] and (problem := phone_problem(values["phone"])):
        errors["phone"] = problem
    for field, key in (("firstName", "first_name"), ("lastName", "last_name"), ("phone", "phone")):
        if not values[key]:
            errors[field] = REQUIRED[field]
    if not (email or "").strip():
        errors["email"] = REQUIRED["email"]
    else:
        try:
            values["email"] = normalize_email(email)
        except ValueError:
            errors["email"] = INVALID_EMAIL
    if not has_resume:
        errors["resume"] = REQUIRED["resume"]
    return values, errors


def _summary_message(errors: dict[str, str]) -> str:
    if any(errors.get(field) == message for field, message in REQUIRED.items()):
        return MISSING
    for problem in (files.WRONG_TYPE, files.EMPTY):
        if problem in (errors.get("resume"), errors.get("coverLetter")):
            return problem
    if errors.get("email") == INVALID_EMAIL:
        return INVALID_EMAIL
    return CHECK_FIELDS


def _hr_recipients(s: Session) -> list[str]:
    hr = s.exec(
        select(User.email).where(
            User.role == Role.employee, User.employee_type == EmployeeType.hr, col(User.is_verified).is_(True)
        )
    ).all()
    recipients = dict.fromkeys(e.lower() for e in hr)
    if settings.staff_notify_email:
        recipients.setdefault(settings.staff_notify_email.lower())
    return list(recipients)


def _send_mails(s: Session, a: JobApplication, job_title: str | None) -> None:
    job = {"job_title": job_title, "job_code": a.job_code}
    recipients = _hr_recipients(s)
    if not recipients:
        log.warning("No HR recipient for application %s (no verified HR employee, STAFF_NOTIFY_EMAIL unset)", a.id)
    else:
        letter = letters.render(s, "application_for_hr", application=a, name=f"{a.first_name} {a.last_name}", **job)
        for to in recipients:
            # Anyone can apply: HR's inbox is capped too (by the staff inboxes' cap).
            mail.enqueue(s, to=to, letter=letter, public=True)
    letter = letters.render(s, "application_received", first_name=a.first_name, **job)
    mail.enqueue(s, to=a.email, letter=letter, public=True)


def submit_application(
    s: Session,
    *,
    job_code: str | None,
    first_name: str,
    last_name: str,
    phone: str,
    email: str,
    linkedin_url: str | None = None,
    resume: Upload | None,
    cover_letter: Upload | None = None,
    ip: str | None = None,
) -> JobApplication:
    """Validate and store an application and its files, and notify HR and the applicant; commits."""
    # A browser sends an empty, nameless part for "no file chosen".
    resume = resume if resume and (resume[0] or resume[1]) else None
    cover_letter = cover_letter if cover_letter and (cover_letter[0] or cover_letter[1]) else None
    values, errors = _check_fields(
        first_name=first_name,
        last_name=last_name,
        phone=phone,
        email=email,
        linkedin_url=linkedin_url,
        has_resume=resume is not None,
    )
    # Type checks need no storage, so every problem is reported at once; an oversized file raises 413 here.
    for field, upload in (("resume", resume), ("coverLetter", cover_letter)):
        if upload is not None:
            try:
                files.detect(upload[0], upload[1], field=field)
            except Invalid as exc:
                errors.update(exc.errors)
    if errors:
        raise Invalid(_summary_message(errors), errors=errors)
    assert resume is not None
    # Counted in this transaction, so only stored applications count; a refusal raises before any file is written.
    if ip and not ratelimit.claim(s, ratelimit.Limit(f"applications:ip:{network(ip)}", *PER_IP)):
        raise TooManyRequests(TOO_MANY)
    code = (job_code or "").strip()[:20] or None
    job = s.exec(select(JobOpening).where(JobOpening.code == code)).first() if code else None
    stored: list[files.StoredFile] = []
    try:
        stored.append(files.store(*resume, field="resume"))
        if cover_letter is not None:
            stored.append(files.store(*cover_letter, field="coverLetter"))
        letter = stored[1] if len(stored) > 1 else None
        application = JobApplication(
            job_opening_id=job.id if job else None,
            job_code=code,
            **values,
            resume_path=stored[0].name,
            resume_filename=stored[0].filename,
            resume_content_type=stored[0].content_type,
            cover_letter_path=letter.name if letter else None,
            cover_letter_filename=letter.filename if letter else None,
            cover_letter_content_type=letter.content_type if letter else None,
        )
        s.add(application)
        s.flush()
        _send_mails(s, application, job.title if job else None)
        s.commit()
    except BaseException:
        for f in stored:  # no file may outlive a failed write: nothing would ever point at it
            files.delete(f.name)
        s.rollback()
        raise
    return application
