"""Careers calls: the public GET /api/jobs and multipart POST /api/applications/submit, and the staff calls on
applications (`staff`: the list, its CSV, the workflow, the documents)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Query, UploadFile
from fastapi.responses import StreamingResponse

from app.api.deps import (
    ClientIP,
    DownloadUser,
    Paged,
    RowId,
    Search,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.downloads import csv_file, private_file
from app.api.schemas import Listed, Saved
from app.core.permissions import Perm
from app.services.careers import applications, careers
from app.services.careers.applications import ApplicationPublic, ApplicationUpdate
from app.services.platform import files

router = APIRouter(tags=["public"])
staff = APIRouter(tags=["content"])
Text = Annotated[str, Form()]


def _read(upload: UploadFile | None) -> tuple[str, bytes] | None:
    """An upload's name and content, reading one byte past the cap at most: a huge file never sits in memory."""
    if upload is None:
        return None
    # The parser has spooled the part to a temporary file; this (sync) route runs in a worker thread.
    return upload.filename or "", upload.file.read(files.max_bytes() + 1)


@router.get("/jobs")
def list_jobs(s: SessionDep) -> dict[str, Any]:
    """Open positions."""
    return {"data": careers.list_open_jobs(s)}


@router.post("/applications/submit", status_code=201)
def submit_application(
    s: SessionDep,
    ip: ClientIP,
    firstName: Text = "",  # noqa: N803 (the spec's field names)
    lastName: Text = "",  # noqa: N803
    phone: Text = "",
    email: Text = "",
    linkedinProfile: Text = "",  # noqa: N803
    jobId: Text = "",  # noqa: N803
    resume: Annotated[UploadFile | None, File()] = None,
    coverLetter: Annotated[UploadFile | None, File()] = None,  # noqa: N803
) -> dict[str, Any]:
    """Store an application with its resume and optional cover letter, and notify HR."""
    application = careers.submit_application(
        s,
        job_code=jobId,
        first_name=firstName,
        last_name=lastName,
        phone=phone,
        email=email,
        linkedin_url=linkedinProfile,
        resume=_read(resume),
        cover_letter=_read(coverLetter),
        ip=ip,
    )
    return {"message": careers.SUBMITTED, "id": application.id}


@staff.get("/admin/applications/export", response_class=StreamingResponse)
def export_applications(
    user: DownloadUser, s: SessionDep, job_code: str = "", status: str = "", search: Search = "", sort: str = ""
) -> StreamingResponse:
    """Every application the list shows with these filters, as a CSV file streamed row by row (applications:read)."""
    pieces = applications.export_applications(s, actor=user, job_code=job_code, status=status, search=search, sort=sort)
    return csv_file("applications", pieces)


@staff.get("/admin/applications", response_model=Listed[ApplicationPublic])
def list_applications(
    user: StaffUser,
    s: SessionDep,
    paged: Paged,
    job_code: Annotated[str, Query(description="Only this opening's applications.")] = "",
    status: Annotated[str, Query(description="Only applications in this status.")] = "",
    sort: Annotated[str, Query(description="newest (default), oldest or name.")] = "newest",
) -> dict[str, Any]:
    """Job applications by opening and status, searched (name, e-mail, job) and paginated in SQL (applications:read)."""
    page = applications.list_applications(s, actor=user, job_code=job_code, status=status, sort=sort, **paged)
    return page.as_json()


@staff.put(
    "/admin/applications/{application_id}",
    response_model=Saved[ApplicationPublic],
    dependencies=[permitted(Perm.applications_write, doing="access job applications")],
)
def update_application(
    application_id: RowId, user: StaffUser, s: SessionDep, body: ApplicationUpdate
) -> dict[str, Any]:
    """Move an application through the workflow and keep notes (applications:write)."""
    data = applications.update_application(s, actor=user, application_id=application_id, data=body)
    return {"data": data, "message": "Application updated"}


@staff.get("/admin/applications/{application_id}/{document}")
def download_document(application_id: RowId, document: str, user: DownloadUser, s: SessionDep) -> StreamingResponse:
    """The applicant's CV (`resume`) or cover letter (`cover-letter`), for staff who read applications."""
    name, kind, handle = applications.open_document(s, actor=user, application_id=application_id, which=document)
    return private_file(name, kind, handle)
