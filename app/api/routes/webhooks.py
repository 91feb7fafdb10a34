"""/api/calendly/webhook: bookings, cancellations and reschedules reported by the scheduling service."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from app.api.deps import SessionDep
from app.core.config import settings
from app.core.errors import Invalid, NotFound
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
