"""The company's details on the public pages (app.services.platform.company).

`AT_BUILD` is what was stored when the pages were built: page titles, descriptions and the legal texts use it. The
parts a visitor uses to reach the company (name in the header and footer, e-mails, phone, address, social links, the
hero's client badges) are `CompanyState` vars: prerendered with the same values, and refreshed on each visit by the
footer's mount, so a change in Settings shows on the next page view without a rebuild.
"""

from __future__ import annotations

import asyncio

import reflex as rx

from app.services.platform import company
from app.services.platform.company import Company
from app.ui.site.content import SNAPSHOT

AT_BUILD: Company = SNAPSHOT.company


def tel_href(phone: str) -> str:
    """A tel: link: the digits, with +1 for a ten-digit (North American) number written without a country code."""
    digits = "".join(c for c in phone if c.isdigit())
    if phone.strip().startswith("+"):
        return f"tel:+{digits}"
    return f"tel:+1{digits}" if len(digits) == 10 else f"tel:{digits}"


def public_vars(c: Company) -> dict[str, object]:
    """`CompanyState`'s values for the details `c` (its load, and app.ui.fresh_pages's prerendering)."""
    return {
        "name": c.name,
        "email": c.email,
        "sales_email": c.sales_email,
        "phone": c.phone,
        "address": c.address,
        "linkedin_url": c.linkedin_url or "",
        "twitter_url": c.twitter_url or "",
        "github_url": c.github_url or "",
        "client_badges": list(c.client_badges),
    }


class CompanyState(rx.State):
    name: str = AT_BUILD.name
    email: str = AT_BUILD.email
    sales_email: str = AT_BUILD.sales_email
    phone: str = AT_BUILD.phone
    address: str = AT_BUILD.address
    linkedin_url: str = AT_BUILD.linkedin_url or ""
    twitter_url: str = AT_BUILD.twitter_url or ""
    github_url: str = AT_BUILD.github_url or ""
    client_badges: list[str] = list(AT_BUILD.client_badges)

    @rx.var
    def phone_href(self) -> str:
        return tel_href(self.phone)

    @rx.event
    async def load(self) -> None:
        """The details as now stored (at most platform.company.CACHE_S old); unchanged values send nothing."""
        fresh = public_vars(await asyncio.to_thread(company.cached))
        for key, value in fresh.items():
            if getattr(self, key) != value:
                setattr(self, key, value)
