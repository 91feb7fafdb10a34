"""POST /api/contact: the contact / quote form (public)."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import ClientIP, SessionDep
from app.api.schemas import Done
from app.services.crm import contact
from app.services.crm.contact import ContactCreate

router = APIRouter(tags=["public"])


@router.post("/contact", status_code=201, response_model=Done)
def submit(body: ContactCreate, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Store an inquiry and acknowledge it by e-mail; a honeypot hit gets the same answer."""
    contact.submit_inquiry(s, data=body, ip=ip)
    return {"message": contact.THANK_YOU}
