"""What a page does on a timer is no sign of a person there. The tickers (the staff sidebar's unread count, the open
dashboard, the portal's unread counts, an open conversation) read as the signed-in person without moving the
session's idle clock, so a tab left open still reaches the idle limit; the person's own actions move it."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app.app import app  # noqa: F401  (registers the pages and their states)
from app.models.base import utcnow
from app.models.enums import Role
from app.models.user import RefreshToken, User, UserPublic
from app.ui.admin.dashboard.state import DashboardState
from app.ui.admin.state import AdminState
from app.ui.portal.projects import ProjectsState
from tests import factories as f
from tests.ui.harness import call, handler_state, new_tag, sign_in


def _idle_for(db: Session, user: User, minutes: int) -> datetime:
    """Put the person's sessions' last activity `minutes` back; returns that moment."""
    then = utcnow() - timedelta(minutes=minutes)
    db.exec(update(RefreshToken).where(col(RefreshToken.user_id) == user.id).values(last_used_at=then))
    db.commit()
    return then


def _last_used(db: Session, user: User) -> datetime:
    db.expire_all()
    value = db.exec(select(func.max(RefreshToken.last_used_at)).where(RefreshToken.user_id == user.id)).one()
    assert value is not None
    return value


def test_staff_tickers_leave_the_idle_clock_and_a_page_load_moves_it(db: Session) -> None:
    admin = f.user(db, f"tick_{new_tag()}", role=Role.admin)
    token = sign_in(db, admin)
    shell = handler_state(AdminState, token, "/admin/dashboard")
    call(shell, "open_section", "dashboard")
    board = handler_state(DashboardState, token, "/admin/dashboard")
    call(board, "load")
    then = _idle_for(db, admin, 5)
    call(shell, "refresh_unread")
    call(board, "refresh")
    assert _last_used(db, admin) == then
    call(shell, "open_section", "dashboard")  # the person opening a page
    assert _last_used(db, admin) > then


def test_portal_tickers_leave_the_idle_clock_and_opening_a_conversation_moves_it(db: Session) -> None:
    client = f.user(db, f"tick_{new_tag()}")
    project = f.project(db, client, name=f"Ticked {new_tag()}")
    state = handler_state(ProjectsState, sign_in(db, client), "/client-portal")
    state.user, state.session_checked = UserPublic.of(client), True
    call(state, "open_conversation", project.id)
    assert state.conversation_name == project.name
    then = _idle_for(db, client, 5)
    call(state, "refresh_unread")
    call(state, "refresh_conversation")
    assert _last_used(db, client) == then
    call(state, "open_conversation", project.id)  # the person's click
    assert _last_used(db, client) > then
