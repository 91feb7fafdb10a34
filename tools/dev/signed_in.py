"""A signed-in browser for the tools that look at signed-in pages (screenshots, page benchmarks): a session opened
in the database the server uses, as a sign-in that passed both its steps opens one. The demo admin and staff must
pass a second factor at sign-in (issue 28, ADR 0103), and a tool has no phone; what the tools measure and look at is
the pages behind the sign-in, not the sign-in. Only for databases the tool's own server uses.

    token = access_token("admin")   # the value of the `access_token` cookie
"""

from __future__ import annotations

from sqlmodel import Session

from app.core.config import settings
from app.core.db import make_engine
from app.services.accounts import sessions
from app.services.accounts.users import get_user_by_identifier


def access_token(username: str, database_url: str | None = None) -> str:
    """A new session of `username` (DATABASE_URL's database unless another is named): its access token."""
    engine = make_engine(database_url or settings.database_url)
    try:
        with Session(engine, expire_on_commit=False) as s:
            user = get_user_by_identifier(s, username)
            if user is None:
                raise SystemExit(f"No account named {username} in {engine.url.render_as_string(hide_password=True)}")
            return sessions.start(s, user).access_token
    finally:
        engine.dispose()
