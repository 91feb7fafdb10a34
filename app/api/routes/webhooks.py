"""Server-to-server webhooks: /api/calendly/webhook (bookings, cancellations and reschedules reported by the
scheduling service) and /api/stripe/webhook (card payments, failures and refunds reported by Stripe)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from app.api.deps import SessionDep
from app.core.config import settings
from app.core.errors import Invalid, NotFound
from app.services.billing import online, stripe_gateway
from app.services.scheduling import calendly

router = APIRouter(tags=["webhooks"])


@router.post("/calendly/webhook")
async def calendly_webhook(request: Request, s: SessionDep) -> dict[str, str]:
    """Apply a signed Calendly event (only when CALENDLY_WEBHOOK_SECRET is configured)."""
    if settings.calendly_webhook_secret is None:
        raise NotFound("Not found")
    body = await request.body()
    calendly.verify_signature(
        request.headers.get("calendly-webhook-signature", ""), body, settings.calendly_webhook_secret.get_secret_value()
    )
    try:
        event = json.loads(body)
    except ValueError as exc:
        raise Invalid("Webhook body is not JSON") from exc
    return {"result": await run_in_threadpool(calendly.apply_webhook, s, event)}


@router.post("/stripe/webhook")
async def stripe_webhook(request: Request, s: SessionDep) -> dict[str, str]:
    """Apply a Stripe event signed with STRIPE_WEBHOOK_SECRET (400 for a missing, forged or stale signature; 404 when
    no secret is configured). Each event is applied once however often Stripe sends it; `result` says whether it was
    "applied", a "duplicate" or "ignored" (an event type this site does not act on still gets 200)."""
    body = await request.body()  # the raw bytes: the signature covers them exactly as sent
    stripe_gateway.verify(body, request.headers.get("stripe-signature", ""))
    try:
        event = json.loads(body)
    except ValueError as exc:
        raise Invalid("Webhook body is not JSON") from exc
    if not isinstance(event, dict):
        raise Invalid("Webhook body is not a Stripe event")
    return {"result": await run_in_threadpool(online.apply_event, s, event)}
