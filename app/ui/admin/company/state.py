"""The Company card's state: the stored details in a form, saved through services.platform.company (settings:manage)."""

from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.services.platform import company, zones
from app.services.platform.company import Company
from app.ui.admin.common import form_text, holds
from app.ui.admin.dialogs import FormState
from app.ui.admin.state import AdminState
from app.ui.rows import Choice

FEATURE = "Settings"
FIELDS = ("name", "email", "sales_email", "phone", "address", "linkedin_url", "twitter_url", "github_url")


@dataclasses.dataclass
class CompanyForm:
    name: str = ""
    email: str = ""
    sales_email: str = ""
    phone: str = ""
    address: str = ""
    linkedin_url: str = ""
    twitter_url: str = ""
    github_url: str = ""
    client_badges: str = ""  # one per line, as the textarea shows them
    business_timezone: str = ""
    bank_instructions: str = ""  # several lines, as typed


def company_form(c: Company) -> CompanyForm:
    return CompanyForm(
        **{name: getattr(c, name) or "" for name in FIELDS},
        client_badges="\n".join(c.client_badges),
        business_timezone=c.business_timezone,
        bank_instructions=c.bank_instructions or "",
    )


def zone_options(current: str) -> list[Choice]:
    """The business zones the select offers, by city and today's offset: the saved one, the common ones, then every
    zone."""
    return [Choice(c.name, c.label) for c in zones.choices(first=current)]


class CompanySettingsState(FormState, AdminState):
    details: CompanyForm = CompanyForm()
    zone_options: rx.Field[list[Choice]] = rx.field(default_factory=list)  # read on load: offsets change
    loaded: bool = False
    load_error: str = ""
    version: int = 0  # keys the form: a fresh load or a save re-renders its uncontrolled fields with the values

    @rx.var
    def can_manage(self) -> bool:
        return holds(self.user, Perm.settings_manage)

    @rx.var
    def general_error(self) -> str:
        """A refusal no field shows (a field's own problem is shown beside it, once)."""
        return "" if self.form_errors else self.form_error

    @rx.event
    async def load(self) -> None:
        self.loaded, self.load_error, self.form_error, self.form_errors = False, "", "", {}
        actor = await self._actor(Perm.settings_manage, FEATURE, quiet=True)
        if actor is None:
            return
        self.load_error, details = await self._read(
            actor, lambda s, a: company.read(s, actor=a), "Failed to load the company settings."
        )
        if details is None:
            return
        self.details, self.loaded = company_form(details), True
        self.zone_options = zone_options(details.business_timezone)
        self.version += 1

    @rx.event
    async def save(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.settings_manage, FEATURE)
        if actor is None:
            return
        data: dict[str, Any] = {name: form_text(form, name, 400) for name in FIELDS}
        data["client_badges"] = form_text(form, "client_badges", 2000)
        data["business_timezone"] = form_text(form, "business_timezone", 64)
        data["bank_instructions"] = form_text(form, "bank_instructions", company.BANK_LIMIT + 100)
        ip = self.router.session.client_ip or None
        self.form_error, self.form_errors = "", {}
        ok, saved = await self._save(
            actor, lambda s, a: company.update(s, actor=a, data=data, ip=ip), "Failed to save the company settings"
        )
        if ok and saved is not None:
            self.details = company_form(saved)
            self.version += 1
            await self._notify("success", "Company settings saved", "The website, e-mails and invoices use them now.")
