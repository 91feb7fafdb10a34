"""/api/newsletter: the footer's Stay Updated box and the double opt-in links e-mailed to subscribers (public)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from app.api.deps import ClientIP, SessionDep
from app.api.pages import message_page
from app.api.schemas import Done
from app.core.errors import Invalid
from app.services import company, newsletter
from app.services.newsletter import SubscribeCreate

router = APIRouter(prefix="/newsletter", tags=["public"])
HOME = {"link": "/", "link_text": "Back to the website"}


@router.post("/subscribe", response_model=Done)
def subscribe(body: SubscribeCreate, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Ask for a subscription; the same answer whether the address is new or already subscribed."""
    return {"message": newsletter.subscribe(s, data=body, ip=ip)}


@router.get("/confirm", response_class=HTMLResponse)
def confirm(s: SessionDep, token: str = "") -> HTMLResponse:
    """The link in the confirmation e-mail: a small page saying whether it worked."""
    try:
        newsletter.confirm(s, token=token)
    except Invalid as exc:
        return message_page("We could not confirm your subscription", exc.message, 400, **HOME)
    text = f"Thank you! You will now receive news and updates from {company.profile(s).name}."
    return message_page("Subscription confirmed", text, 200, **HOME)


@router.get("/unsubscribe", response_class=HTMLResponse)
def unsubscribe(s: SessionDep, token: str = "") -> HTMLResponse:
    """The link at the foot of newsletter e-mails."""
    try:
        newsletter.unsubscribe(s, token=token)
    except Invalid as exc:
        return message_page("We could not unsubscribe you", exc.message, 400, **HOME)
    return message_page("You are unsubscribed", "You will not receive our newsletter any more.", 200, **HOME)
