"""`/metrics`: this process's figures in Prometheus' text format, for the operator's Prometheus only (ADR 0095).

Without METRICS_TOKEN the route does not exist to anyone (404, as any unknown path); with it, a scrape must send
`Authorization: Bearer <token>`. Not "loopback only": behind nginx on the same host every request comes from
loopback, so that rule would hand the figures to the whole internet the day /metrics is proxied.
"""

from __future__ import annotations

import hmac
import logging

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from app.api.deps import SessionDep
from app.core import metrics
from app.core.config import settings
from app.services.platform import mail

log = logging.getLogger(__name__)


def operator_only(request: Request) -> None:
    """404 when no token is configured; 401 unless the request carries it (compared in constant time)."""
    if settings.metrics_token is None:
        raise HTTPException(status_code=404, detail="Not found")
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    expected = settings.metrics_token.get_secret_value()
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), expected.encode()):
        raise HTTPException(
            status_code=401, detail="A bearer token is required", headers={"WWW-Authenticate": "Bearer"}
        )


router = APIRouter(dependencies=[Depends(operator_only)], include_in_schema=False)


@router.get("/metrics")
def scrape(s: SessionDep) -> Response:
    try:
        outbox = mail.queue_health(s)
    except SQLAlchemyError as exc:
        # The other figures still tell the operator something while the database is away; the outbox's stay
        # unknown (absent) rather than a stale number, and app_database_up says why.
        log.warning("Metrics: the outbox could not be read (%s)", exc.__class__.__name__)
        metrics.database_up.set(0)
        for gauge in (metrics.outbox_pending, metrics.outbox_failed, metrics.outbox_oldest_age):
            gauge.set(float("nan"))
    else:
        metrics.database_up.set(1)
        metrics.outbox_pending.set(outbox.pending)
        metrics.outbox_failed.set(outbox.failed)
        metrics.outbox_oldest_age.set(outbox.oldest_pending_seconds)
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE, headers={"Cache-Control": "no-store"})
