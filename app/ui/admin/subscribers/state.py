"""The Newsletter tab's state: one page of subscribers (searched in the e-mail, by status, sorted), the export link
for what is shown, and the confirmation that unsubscribes one.

Every handler checks the session and the permission again (the service checks them once more), because any browser
can call any handler with any payload: the confirmation opens only for a row of the page shown, by its id, and the
dialog names the address from that row, never from what the browser sent.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import reflex as rx

from app.core.permissions import Perm
from app.models.enums import SubscriberStatus
from app.services.crm import newsletter_admin
from app.services.crm.newsletter_admin import SubscriberPublic
from app.ui.admin.business_time import day_text
from app.ui.admin.cards import FEATURE
from app.ui.admin.dialogs import SectionWriter
from app.ui.admin.paged import PagedTab, SectionListing, export_url
from app.ui.admin.state import AdminState
from app.ui.rows import Choice, Row, label_of

PAGE_SIZE = 20
STATUSES = [s.value for s in SubscriberStatus]
SORTS = [("newest", "Newest first"), ("oldest", "Oldest first"), ("email", "E-mail A to Z")]
SOURCE_LABELS = {"footer": "Website footer", "contact": "Contact form"}


@dataclasses.dataclass
class SubscriberRow(Row):
    email: str = ""
    status: Choice = dataclasses.field(default_factory=Choice)
    source: str = ""
    subscribed: str = ""  # the day the request came in
    confirmed: str = ""  # the day the link was opened ("" while pending)
    active: bool = True  # not unsubscribed yet: the only rows an Unsubscribe is offered for


def subscriber_row(sub: SubscriberPublic) -> SubscriberRow:
    return SubscriberRow(
        id=sub.id,
        email=sub.email,
        status=Choice.of(sub.status),
        source=SOURCE_LABELS.get(sub.source or "", label_of(sub.source or "")),
        subscribed=day_text(sub.created_at),
        confirmed=day_text(sub.confirmed_at),
        active=sub.status != SubscriberStatus.unsubscribed,
    )


class SubscriberListState(SectionWriter, PagedTab[SubscriberRow], AdminState):
    listing: ClassVar[SectionListing[SubscriberRow]] = SectionListing(
        Perm.content_read, FEATURE, newsletter_admin.list_subscribers, subscriber_row, "subscribers"
    )
    rows: rx.Field[list[SubscriberRow]] = rx.field(default_factory=list)
    page_size: int = PAGE_SIZE
    sort: str = "newest"
    status_filter: rx.Field[str] = rx.field("")

    def _write_guard(self) -> tuple[str, str]:
        return Perm.content_write, FEATURE

    @rx.var
    def export_url(self) -> str:
        filters = {"status": self.status_filter, "search": self.search, "sort": self.sort}
        return export_url("/api/admin/newsletter/subscribers/export", filters)

    @rx.var
    def filtered(self) -> bool:
        return self.search != "" or self.status_filter != ""

    def _filters(self) -> dict[str, Any]:
        return {"status": self.status_filter}

    @rx.event
    async def set_status_filter(self, value: str) -> None:
        self.status_filter = value if value in STATUSES else ""
        await self._first_page()

    # --- unsubscribe ---------------------------------------------------------------------------------------------

    @rx.event
    async def ask_unsubscribe(self, value: int) -> None:
        """Ask to confirm unsubscribing the row `value` of the page shown (for staff with content:write)."""
        row = self._shown_row(value)
        if row is None or not row.active or await self._writer() is None:
            return
        self._open_dialog("unsubscribe", row.id, row.email)

    @rx.event
    async def confirm_unsubscribe(self) -> None:
        actor = await self._writer()
        if actor is None or self.dialog != "unsubscribe":
            return
        target = self._dialog_row()
        ok, _ = await self._attempt_saving(
            actor,
            lambda s, a: newsletter_admin.unsubscribe_subscriber(s, actor=a, subscriber_id=target),
            "Failed to unsubscribe",
            "Failed to unsubscribe the subscriber",
        )
        self.close_dialogs()
        if not ok:
            return
        await self._notify("success", "Subscriber unsubscribed", self.dialog_name)
        await self._reload()
