"""/api/newsletter: the footer's Stay Updated box and the double opt-in links e-mailed to subscribers (public)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from app.api.deps import ClientIP, SessionDep
from app.api.pages import message_page
from app.api.schemas import Done
from app.core.errors import Invalid
from app.services.crm import newsletter
from app.services.crm.newsletter import SubscribeCreate
from app.services.platform import company

router = APIRouter(prefix="/newsletter", tags=["public"])
HOME = {"link": "/", "link_text": "Back to the website"}


@router.post("/subscribe", response_model=Done)
def subscribe(body: SubscribeCreate, s: SessionDep, ip: ClientIP) -> dict[str, str]:
    """Ask for a subscription; the same answer whether the address is new or already subscribed."""
    return {"message": newsletter.subscribe(s, data=body, ip=ip)}


def _answer(act: Callable[[], object], failed: str, done: str, text: str) -> HTMLResponse:
    """The page of the site a link in a newsletter e-mail opens: what went wrong (400), or that it worked."""
    site = company.cached().name
    try:
        act()
    except Invalid as exc:
        return message_page(failed, exc.message, 400, site=site, **HOME)
    return message_page(done, text, 200, site=site, **HOME)


@router.get("/confirm", response_class=HTMLResponse)
def confirm(s: SessionDep, token: str = "") -> HTMLResponse:
    """The link in the confirmation e-mail: a small page saying whether it worked."""
    text = f"Thank you! You will now receive news and updates from {company.profile(s).name}."
    failed = "We could not confirm your subscription"
    return _answer(lambda: newsletter.confirm(s, token=token), failed, "Subscription confirmed", text)


@router.get("/unsubscribe", response_class=HTMLResponse)
def unsubscribe(s: SessionDep, token: str = "") -> HTMLResponse:
    """The link at the foot of newsletter e-mails."""
    text = "You will not receive our newsletter any more."
    return _answer(
        lambda: newsletter.unsubscribe(s, token=token), "We could not unsubscribe you", "You are unsubscribed", text
    )
