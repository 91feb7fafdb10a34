"""POST /api/contact: the contact / quote form (public)."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import ClientIP, SessionDep
from app.services import contact

router = APIRouter(tags=["public"])


class ContactIn(BaseModel):
    name: str | None = ""
    email: str | None = ""
    company: str | None = ""
    phone: str | None = ""
    service_type: str | None = ""
    budget: str | None = ""
    message: str | None = ""
    newsletter: bool | None = False
    website: str | None = ""  # the hidden honeypot; people leave it empty


@router.post("/contact", status_code=201)
def submit(body: ContactIn, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Store an inquiry and acknowledge it by e-mail; a honeypot hit gets the same answer."""
    contact.submit_inquiry(
        s,
        name=body.name or "",
        email=body.email or "",
        company=body.company or "",
        phone=body.phone or "",
        service_type=body.service_type or "",
        budget=body.budget or "",
        message=body.message or "",
        newsletter=bool(body.newsletter),
        website=body.website or "",
        ip=ip,
    )
    return {"message": contact.THANK_YOU}
