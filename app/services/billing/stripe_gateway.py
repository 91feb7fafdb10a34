"""Stripe's API as billing calls it: the real SDK (a `StripeClient` on STRIPE_API_BASE), short time-outs, no retries.

No automatic retries: a POST that reached Stripe but whose answer was lost would, retried, be a second Checkout
Session or a second refund. The calls that create something send an idempotency key instead, so the caller's own
retry (a second click) gets the first object back. Stripe's failures become domain errors here, once: unreachable or
failing is `Unavailable` (503, nothing was charged), a refusal is `Conflict` with Stripe's reason.
"""

from __future__ import annotations

import logging
from typing import Any

import stripe

from app.core.config import settings
from app.core.errors import BadRequest, Conflict, NotFound, Unavailable

log = logging.getLogger(__name__)

UNREACHABLE = (
    "Card payment is unavailable right now: our payment provider did not answer. Nothing was charged; please try "
    "again in a few minutes."
)
NOT_SET_UP = "Card payment is not available on this site."
# Stripe's own: an event older than this (or from the future by as much) is refused, so a captured one cannot be
# replayed later.
TOLERANCE_SECONDS = 300
# Connect, then read: a page waits for the Checkout Session, so Stripe's slowness must not become the page's.
TIMEOUT = (3.0, 10.0)


def configured() -> bool:
    """Card payment is offered only with a secret key; without one nothing about it shows anywhere."""
    return settings.stripe_secret_key is not None


def _client() -> stripe.StripeClient:
    key = settings.stripe_secret_key
    if key is None:
        raise NotFound(NOT_SET_UP)
    return stripe.StripeClient(
        key.get_secret_value(),
        base_addresses={"api": settings.stripe_api_base.rstrip("/")},
        max_network_retries=0,
        http_client=stripe.RequestsClient(timeout=TIMEOUT),
    )


def _call(what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except (stripe.APIConnectionError, stripe.RateLimitError, stripe.APIError) as exc:
        log.warning("Stripe %s failed: %s", what, exc.__class__.__name__)
        raise Unavailable(UNREACHABLE) from exc
    except stripe.AuthenticationError as exc:
        log.error("Stripe refused the secret key (%s)", what)
        raise Unavailable("Card payment is not configured correctly; please pay by bank transfer.") from exc
    except stripe.StripeError as exc:
        log.warning("Stripe refused %s: %s", what, exc.user_message)
        raise Conflict(f"The payment provider refused: {exc.user_message or 'no reason given'}") from exc


def create_checkout_session(params: dict[str, Any], *, idempotency_key: str) -> tuple[str, str]:
    """A Checkout Session (POST /v1/checkout/sessions): its id and the URL to send the payer to."""
    session = _call(
        "checkout",
        _client().v1.checkout.sessions.create,
        params,
        {"idempotency_key": idempotency_key},
    )
    return str(session.id), str(session.url)


def retrieve_checkout_session(session_id: str) -> dict[str, Any]:
    """A Checkout Session as Stripe has it now (GET /v1/checkout/sessions/{id}): status, payment status, reference."""
    session = _call("checkout lookup", _client().v1.checkout.sessions.retrieve, session_id)
    return {
        "id": session.id,
        "status": session.status,
        "payment_status": session.payment_status,
        "client_reference_id": session.client_reference_id,
    }


def create_refund(payment_intent: str, amount_cents: int, *, idempotency_key: str) -> tuple[str, str]:
    """A refund of part or all of a payment intent's charge (POST /v1/refunds): its id and status."""
    refund = _call(
        "refund",
        _client().v1.refunds.create,
        {"payment_intent": payment_intent, "amount": amount_cents},
        {"idempotency_key": idempotency_key},
    )
    return str(refund.id), str(refund.status)


def verify(payload: bytes, signature: str) -> None:
    """Check a webhook's `Stripe-Signature` with the SDK's own verifier (HMAC-SHA256 of "{t}.{payload}" with the
    webhook secret, the timestamp within TOLERANCE_SECONDS). NotFound when no webhook secret is configured, BadRequest
    for a missing, forged or stale signature."""
    secret = settings.stripe_webhook_secret
    if secret is None:
        raise NotFound("Not found")
    try:
        stripe.WebhookSignature.verify_header(
            payload.decode("utf-8"), signature, secret.get_secret_value(), TOLERANCE_SECONDS
        )
    except (stripe.SignatureVerificationError, UnicodeDecodeError) as exc:
        raise BadRequest("Invalid or expired Stripe signature") from exc
