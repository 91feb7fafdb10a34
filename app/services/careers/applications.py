"""Job applications as HR sees them: per opening, the CV and cover letter, and the hiring workflow with notes.

new → reviewing → interview → offer, and rejected from any open step. Applicants are e-mailed when invited to an
interview or rejected; an offer is made in person, so no automatic mail goes out for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import IO, Annotated, Any, Unpack

from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.core.errors import Invalid, NotFound
from app.core.permissions import Perm
from app.models.careers import JobApplication, JobOpening
from app.models.enums import ApplicationStatus as S
from app.models.user import User
from app.services.platform import audit, files, letters, mail
from app.services.platform.access import found, require
from app.services.platform.csv_export import table
from app.services.platform.paging import Listing, Ordering, Page, View, one_of
from app.services.platform.schema import Body, RawText, parse, problem

NEXT: dict[S, set[S]] = {
    S.new: {S.reviewing, S.rejected},
    S.reviewing: {S.interview, S.rejected},
    S.interview: {S.offer, S.rejected},
    S.offer: set(),
    S.rejected: set(),
}
APPLICATION_SORTS = {
    "newest": (col(JobApplication.created_at).desc(), col(JobApplication.id).desc()),
    "oldest": (col(JobApplication.created_at), col(JobApplication.id)),
    "name": (func.lower(JobApplication.last_name), func.lower(JobApplication.first_name), col(JobApplication.id)),
}
OPENINGS_MAX = 200  # job codes offered by the opening filter


def _known_status(value: str | None) -> str | None:
    if value is not None and value not in S.__members__:
        raise problem("Unknown status")
    return value


class ApplicationUpdate(Body):
    """The workflow step and/or the notes; a field not sent (or null) is unchanged."""

    status: Annotated[RawText, AfterValidator(_known_status)] = Field(
        None, description="The next status: one of the application's `next_statuses`."
    )
    notes: RawText = Field(None, description="Staff notes (trimmed, at most 5000 characters are kept).")


class ApplicationPublic(BaseModel):
    id: int
    job_code: str | None
    job_title: str | None
    first_name: str
    last_name: str
    email: str
    phone: str | None
    linkedin_url: str | None
    status: str
    next_statuses: list[str]
    notes: str | None
    resume_filename: str | None
    cover_letter_filename: str | None
    created_at: str


class OpeningChoice(BaseModel):
    """An opening applications were made to, as the list's filter offers it."""

    code: str
    label: str


def application_public(a: JobApplication, job_title: str | None = None) -> ApplicationPublic:
    return ApplicationPublic(
        id=a.id or 0,
        job_code=a.job_code,
        job_title=job_title,
        first_name=a.first_name,
        last_name=a.last_name,
        email=a.email,
        phone=a.phone,
        linkedin_url=a.linkedin_url,
        status=str(a.status),
        next_statuses=sorted(str(x) for x in NEXT[S(a.status)]),
        notes=a.notes,
        resume_filename=a.resume_filename,
        cover_letter_filename=a.cover_letter_filename,
        created_at=a.created_at.isoformat(),
    )


def list_applications(
    s: Session, *, actor: User, job_code: str = "", status: str = "", **view: Unpack[View]
) -> Page[ApplicationPublic]:
    """A page of applications (newest first unless sorted), by opening and status, searched in the applicant's name,
    e-mail and the job (code or title) (applications:read)."""
    query = _applications(actor, job_code=job_code, status=status)
    return APPLICATIONS.page(s, query, **view)


APPLICATION_SEARCH = (
    JobApplication.first_name + " " + JobApplication.last_name,
    JobApplication.email,
    JobApplication.job_code,
    JobOpening.title,
)
APPLICATION_COLUMNS = (
    "id", "created_at", "first_name", "last_name", "email", "phone", "linkedin_url", "job_code", "job_title",
    "status", "resume_filename", "cover_letter_filename", "notes",
)  # fmt: skip


def _application_row(row: Any) -> ApplicationPublic:
    return application_public(row[0], row[1])


APPLICATIONS = Listing(_application_row, APPLICATION_SORTS, APPLICATION_SEARCH)


def _applications(actor: User, *, job_code: str, status: str) -> Any:
    require(actor, Perm.applications_read, "access job applications")
    query = select(JobApplication, JobOpening.title).join(
        JobOpening, col(JobApplication.job_opening_id) == JobOpening.id, isouter=True
    )
    if job_code:
        query = query.where(JobApplication.job_code == job_code)
    return one_of(query, JobApplication.status, status, S)


def export_applications(
    s: Session, *, actor: User, job_code: str = "", status: str = "", **order: Unpack[Ordering]
) -> Iterator[str]:
    """Every application the list shows with these filters, as CSV text in pieces (checked before the first)."""
    query = _applications(actor, job_code=job_code, status=status)
    rows = (row.model_dump() for row in APPLICATIONS.stream(s, query, **order))
    return table(APPLICATION_COLUMNS, rows)


def opening_choices(s: Session, *, actor: User) -> list[OpeningChoice]:
    """The openings applications were made to (by code), for the list's filter (applications:read)."""
    require(actor, Perm.applications_read, "access job applications")
    rows = s.exec(
        select(JobApplication.job_code, func.max(JobOpening.title))
        .join(JobOpening, col(JobApplication.job_opening_id) == JobOpening.id, isouter=True)
        .where(col(JobApplication.job_code).is_not(None))
        .group_by(JobApplication.job_code)
        .order_by(JobApplication.job_code)
        .limit(OPENINGS_MAX)
    ).all()
    return [
        OpeningChoice(code=code, label=f"{title} ({code})" if title and title != code else code)
        for code, title in rows
        if code
    ]


def _get(s: Session, application_id: int) -> JobApplication:
    return found(s, JobApplication, application_id, "Application")


def open_document(s: Session, *, actor: User, application_id: int, which: str) -> tuple[str, str, IO[bytes]]:
    """The stored CV or cover letter (download name, content type, open file) for staff with applications:read."""
    require(actor, Perm.applications_read, "access job applications")
    a = _get(s, application_id)
    kind: str | None
    if which == "resume":
        name, original, kind = a.resume_path, a.resume_filename, a.resume_content_type
    elif which == "cover-letter" and a.cover_letter_path:
        name, original, kind = (
            a.cover_letter_path,
            a.cover_letter_filename or "cover-letter",
            a.cover_letter_content_type,
        )
    else:
        raise NotFound("Document not found")
    # Opened before the audit entry: a store that is down answers 503 and no download is recorded that did not happen.
    handle = files.open_private(name)
    try:
        audit.record(s, actor=actor, action="application.download", entity=a, details={"document": which})
        s.commit()
    except BaseException:
        handle.close()
        raise
    return original, kind or "application/octet-stream", handle


def update_application(
    s: Session, *, actor: User, application_id: int, data: ApplicationUpdate | Mapping[str, Any]
) -> ApplicationPublic:
    """Move an application along the workflow and/or change its notes (applications:write)."""
    require(actor, Perm.applications_write, "access job applications")
    a = _get(s, application_id)
    body = parse(ApplicationUpdate, data)
    status, notes = body.status, body.notes
    if status is not None and status != a.status:
        if status not in S.__members__:
            raise Invalid("Unknown status", errors={"status": "Unknown status"})
        if S(status) not in NEXT[S(a.status)]:
            raise Invalid(
                f"An application that is {a.status} cannot move to {status}.", errors={"status": "Not allowed"}
            )
        a.status = S(status)
        _tell_applicant(s, a)
    if notes is not None:
        a.notes = notes.strip()[:5000] or None
    s.add(a)
    audit.record(s, actor=actor, action="application.update", entity=a, details={"status": str(a.status)})
    s.commit()
    title = s.get(JobOpening, a.job_opening_id).title if a.job_opening_id else None  # type: ignore[union-attr]
    return application_public(a, title)


# The letter (mail_templates/<name>.txt) an applicant gets when their application moves to these statuses.
LETTERS = {S.interview: "application_interview", S.rejected: "application_rejected"}


def _tell_applicant(s: Session, a: JobApplication) -> None:
    if (name := LETTERS.get(S(a.status))) is None:
        return
    # The opening's title, as the applicant saw it ("Senior Full-Stack Developer", not "JOB-001").
    opening = s.get(JobOpening, a.job_opening_id) if a.job_opening_id else None
    letter = letters.render(
        s, name, first_name=a.first_name, job_code=a.job_code, job_title=opening.title if opening else None
    )
    mail.enqueue(s, to=a.email, letter=letter, public=False)
