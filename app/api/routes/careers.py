"""Public careers calls: GET /api/jobs and the multipart POST /api/applications/submit."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, UploadFile

from app.api.deps import ClientIP, SessionDep
from app.services.careers import careers
from app.services.platform import files

router = APIRouter(tags=["public"])
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
