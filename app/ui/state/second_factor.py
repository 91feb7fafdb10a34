"""A person's own two-step sign-in (ADR 0103), shown in the portal's Settings tab and on the staff panel's Settings
page: their states mix this in and say who is asking (`_factor_user`: None once they have been told why not).

Setting up shows the QR code and the key, then the recovery codes once; turning it off and new recovery codes need a
current code. The service checks everything (who must keep it, replays, the failure budget); the page shows its words.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.errors import DomainError
from app.models.user import UserPublic
from app.services.accounts import passkeys, second_factor
from app.ui.state.calls import as_actor
from app.ui.state.notice import notify


def _code(form: Any) -> str:
    value = form.get("code") if isinstance(form, dict) else None
    return value if isinstance(value, str) else ""


@dataclasses.dataclass
class PasskeyView:
    id: int = 0
    name: str = ""
    added: str = ""  # ISO times: the page shows them in the reader's zone
    used: str = ""


class SecondFactorMixin(rx.State, mixin=True):
    factor_loaded: bool = False
    factor_on: bool = False
    factor_required: bool = False
    factor_recovery_left: int = 0
    factor_trusted: int = 0  # browsers trusted for 30 days
    factor_view: str = ""  # "enrol" (QR code and first code), "codes" (recovery codes, once), "off", "renew" or ""
    factor_qr: str = ""
    factor_secret: str = ""
    factor_codes: list[str] = []
    factor_error: str = ""
    factor_busy: bool = False
    passkey_rows: list[PasskeyView] = []

    async def _factor_user(self) -> UserPublic | None:
        raise NotImplementedError

    async def _load_factor(self) -> None:
        user = await self._factor_user()
        if user is None:
            return
        status = await as_actor(user, second_factor.status)
        self.factor_on, self.factor_required = status.on, status.required
        self.factor_recovery_left, self.factor_trusted = status.recovery_left, status.trusted_browsers
        rows = await as_actor(user, passkeys.listed)
        self.passkey_rows = [
            PasskeyView(
                id=p.id or 0,
                name=p.name,
                added=p.created_at.isoformat(),
                used=p.last_used_at.isoformat() if p.last_used_at else "",
            )
            for p in rows
        ]
        self.factor_loaded = True

    async def _factor_call(self, fn: Any) -> Any:
        """`fn(session, actor)` as the signed-in person; None (with the error shown) when it is refused."""
        user = await self._factor_user()
        if user is None:
            return None
        try:
            return await as_actor(user, fn)
        except DomainError as exc:
            self.factor_error = next(iter(exc.errors.values()), "") or exc.message
            return None

    @rx.event
    def factor_show(self, view: str) -> None:
        """Open the form to turn it off or to make new recovery codes (or close any with "")."""
        self.factor_view = view if view in ("off", "renew", "") else ""
        self.factor_error, self.factor_codes = "", []

    @rx.event
    async def factor_start(self):
        self.factor_error, self.factor_busy = "", True
        yield
        enrolment = await self._factor_call(second_factor.begin_enrolment)
        self.factor_busy = False
        if enrolment is not None:
            self.factor_qr, self.factor_secret, self.factor_view = enrolment.qr_svg, enrolment.secret, "enrol"

    @rx.event
    async def factor_confirm(self, form: dict):
        self.factor_error, self.factor_busy = "", True
        yield
        code, ip = _code(form), self.router.session.client_ip or None
        codes = await self._factor_call(lambda s, a: second_factor.confirm_enrolment(s, a, code, ip=ip))
        self.factor_busy = False
        if codes is not None:
            self.factor_codes, self.factor_view, self.factor_qr, self.factor_secret = codes, "codes", "", ""
            await self._load_factor()
            await notify(self, "success", "Two-step sign-in is on", "Save your recovery codes now.")

    @rx.event
    async def factor_renew(self, form: dict):
        self.factor_error, self.factor_busy = "", True
        yield
        code, ip = _code(form), self.router.session.client_ip or None
        codes = await self._factor_call(lambda s, a: second_factor.renew_recovery_codes(s, a, code, ip=ip))
        self.factor_busy = False
        if codes is not None:
            self.factor_codes, self.factor_view = codes, "codes"
            await self._load_factor()
            await notify(self, "success", "New recovery codes", "The old ones no longer work.")

    @rx.event
    async def factor_turn_off(self, form: dict):
        self.factor_error, self.factor_busy = "", True
        yield
        code, ip = _code(form), self.router.session.client_ip or None

        def turn_off(s: Any, actor: Any) -> bool:
            second_factor.turn_off(s, actor, code, ip=ip)
            return True

        done = await self._factor_call(turn_off)
        self.factor_busy = False
        if done:
            self.factor_view = ""
            await self._load_factor()
            await notify(self, "success", "Two-step sign-in is off", "Signing in now needs only your password.")

    @rx.event
    async def factor_forget_browsers(self):
        ip = self.router.session.client_ip or None
        forgotten = await self._factor_call(lambda s, a: second_factor.forget_browsers(s, a, ip=ip))
        if forgotten is not None:
            await self._load_factor()
            await notify(self, "success", "Browsers forgotten", second_factor.BROWSERS_FORGOTTEN)

    @rx.event
    async def passkeys_reload(self) -> None:
        """After the page's script added a passkey over the REST routes: the list as stored."""
        await self._load_factor()

    @rx.event
    async def passkey_remove(self, passkey_id: int):
        ip = self.router.session.client_ip or None

        def remove(s: Any, actor: Any) -> bool:
            passkeys.remove(s, actor, passkey_id, ip=ip)
            return True

        if await self._factor_call(remove):
            await self._load_factor()
            await notify(self, "success", "Passkey removed", "It can no longer sign you in.")
