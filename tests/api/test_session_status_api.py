"""GET /api/auth/session (issue 12, point 6): an open page learns that the server ended its session, without the
question counting as activity (the idle timer must keep running while nobody is there)."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, select

from app.models.base import utcnow
from app.models.user import RefreshToken
from app.services.accounts import sessions
from tests import factories as f


def test_the_status_says_alive_without_counting_as_activity(client: TestClient, session: Session) -> None:
    user = f.user(session, "status_client")
    issued = sessions.start(session, user)
    client.cookies.set("access_token", issued.access_token)
    an_hour_ago = utcnow() - timedelta(hours=1)
    session.exec(update(RefreshToken).where(RefreshToken.user_id == user.id).values(last_used_at=an_hour_ago))  # type: ignore[call-overload]
    session.commit()
    assert client.get("/api/auth/session").json() == {"active": True}
    session.expire_all()
    row = session.exec(select(RefreshToken).where(RefreshToken.user_id == user.id)).one()
    assert abs((row.last_used_at - an_hour_ago).total_seconds()) < 1  # not touched


def test_the_status_is_401_once_the_server_ended_the_session(client: TestClient, session: Session) -> None:
    assert client.get("/api/auth/session").status_code == 401  # never signed in
    user = f.user(session, "status_ended")
    client.cookies.set("access_token", sessions.start(session, user).access_token)
    assert client.get("/api/auth/session").status_code == 200
    sessions.revoke_all(session, user.id)  # e.g. signed out elsewhere, a password reset
    assert client.get("/api/auth/session").status_code == 401


def test_an_idle_session_is_401_too(client: TestClient, session: Session) -> None:
    user = f.user(session, "status_idle")
    client.cookies.set("access_token", sessions.start(session, user).access_token)
    long_ago = utcnow() - timedelta(hours=5)  # clients idle out after 4 hours
    session.exec(update(RefreshToken).where(RefreshToken.user_id == user.id).values(last_used_at=long_ago))  # type: ignore[call-overload]
    session.commit()
    assert client.get("/api/auth/session").status_code == 401
