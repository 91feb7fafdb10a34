"""The client picker of the staff forms (invoices, organizations, projects, meetings): a "Search clients…" box that
searches on the server and a select offering the first `CLIENT_LIMIT` matches, saying when more match.

No state holds the whole client list: with 10,000 clients that was over a megabyte per tab. The chosen client (and
whatever else the section keeps, `_kept_clients`) stays an option whatever is typed, so an edited record keeps its
client. `ClientPicker` is mixed into a section's state, which says who may use it (`_picker_actor`, through its own
`_actor(...)`): every event here is browser-callable with any payload, so each asks again.
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.models.user import UserPublic
from app.services.accounts import admin_users
from app.services.platform.paging import SEARCH_MAX
from app.ui.admin.common import SEARCH_INPUT, load_clients, option
from app.ui.admin.state import as_actor
from app.ui.admin.widgets import INPUT
from app.ui.rows import Choice

CLIENT_LIMIT = 50  # clients the picker offers at once; typing narrows them
CAPPED_TEXT = "Showing the first matches: type a name, username, e-mail or company to find others."


class ClientPicker(rx.State, mixin=True):
    """The picker's state: the search text, the capped options and the chosen client."""

    client_search: str = ""
    client_options: list[Choice] = []
    clients_capped: bool = False  # more clients match than the picker shows
    client_id: str = ""  # the chosen client
    _client_label: str = ""

    # --- what the section defines -----------------------------------------------------------------------------

    async def _picker_actor(self) -> UserPublic | None:
        """The caller if they may use the picker (the section's `_actor(perm, feature)`); nobody by default."""
        return None

    async def _client_chosen(self, actor: UserPublic) -> None:
        """Called after a choice (billing loads the client's projects)."""

    def _kept_clients(self) -> list[Choice]:
        """Options offered whatever the search: the chosen client."""
        return [Choice(self.client_id, self._client_label)] if self.client_id else []

    # --- helpers ----------------------------------------------------------------------------------------------

    async def _find_clients(self, actor: UserPublic) -> None:
        """The clients matching the search box, capped; the kept clients stay options whatever is typed."""
        rows = await load_clients(actor, search=self.client_search, limit=CLIENT_LIMIT + 1)
        self.clients_capped = len(rows) > CLIENT_LIMIT
        options = [Choice(c.id, c.label) for c in rows[:CLIENT_LIMIT]]
        for kept in reversed(self._kept_clients()):
            if all(o.value != kept.value for o in options):
                options.insert(0, kept)
        self.client_options = options

    async def _client_option(self, actor: UserPublic, client_id: str) -> Choice | None:
        """An existing record's client as the picker shows it, or None (no such client, or not allowed)."""
        if not client_id:
            return None
        try:
            dto = await as_actor(actor, lambda s, a: admin_users.client_choice(s, actor=a, client_id=client_id))
        except Exception:
            return None
        return Choice(dto.id, dto.label) if dto else None

    async def _reset_clients(self, actor: UserPublic, client_id: str = "") -> None:
        """Open the picker afresh: no search, `client_id` (an edited record's client) chosen and kept as an option."""
        chosen = await self._client_option(actor, client_id)
        self.client_search = ""
        self.client_id, self._client_label = (chosen.value, chosen.label) if chosen else ("", "")
        await self._find_clients(actor)

    def _offered(self, value: Any) -> Choice | None:
        return next((o for o in self.client_options if o.value == str(value)), None)

    async def _choose(self, actor: UserPublic, value: Any) -> None:
        chosen = self._offered(value)
        self.client_id, self._client_label = (chosen.value, chosen.label) if chosen else ("", "")
        await self._client_chosen(actor)

    # --- events -----------------------------------------------------------------------------------------------

    @rx.event
    async def search_clients(self, value: str) -> None:
        actor = await self._picker_actor()
        if actor is None:
            return
        self.client_search = str(value)[:SEARCH_MAX]
        await self._find_clients(actor)

    @rx.event
    async def choose_client(self, value: str) -> None:
        """Choose one of the options offered (anything else clears the choice)."""
        actor = await self._picker_actor()
        if actor is not None:
            await self._choose(actor, value)


def client_picker(
    state: Any,
    *,
    select_id: str,
    search_test_id: str,
    label: str = "Client",
    blank: str = "",
    required: bool = False,
    value: Any = None,
    on_change: Any = None,
    name: str = "client_id",
    error: Any = None,
    label_hidden: bool = False,
    inline: bool = False,
) -> rx.Component:
    """The search box and the select of a `ClientPicker` state.

    `blank` is the empty choice's text ("None", "All clients"); without it the empty option is a disabled prompt.
    `value`/`on_change` default to the state's chosen client and `choose_client` (the meetings filter passes its own).
    `inline` sets the box and the select side by side (a list's filter row).
    """
    empty = (
        rx.el.option(blank, value="")
        if blank
        else rx.el.option(
            rx.cond(state.client_options.length() > 0, "Choose a client", "No clients match your search"),
            value="",
            disabled=True,
        )
    )
    return rx.el.div(
        rx.el.label(
            label,
            rx.el.span(" *", class_name="text-red-600") if required else rx.fragment(),
            html_for=select_id,
            class_name="sr-only" if label_hidden else "mb-1 block text-sm font-medium text-slate-700",
        ),
        rx.el.div(
            rx.icon(
                "search",
                size=16,
                class_name="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-slate-400",
            ),
            rx.el.input(
                type="search",
                placeholder="Search clients…",
                aria_label="Search clients",
                aria_controls=select_id,
                default_value=state.client_search,
                on_change=state.search_clients.debounce(300),
                auto_complete="off",
                class_name=SEARCH_INPUT,
                data_testid=search_test_id,
            ),
            class_name="relative sm:w-48" if inline else "relative mb-2",
        ),
        rx.el.select(
            empty,
            rx.foreach(state.client_options, option),
            name=name or None,
            id=select_id,
            value=state.client_id if value is None else value,
            on_change=state.choose_client if on_change is None else on_change,
            required=required,
            class_name=f"{INPUT} pr-8" + (" sm:w-48" if inline else ""),
        ),
        rx.cond(
            state.clients_capped,
            rx.el.span(CAPPED_TEXT, class_name="mt-1 block text-xs text-slate-500"),
            rx.fragment(),
        ),
        rx.cond(
            error,
            rx.el.span(error, class_name="mt-1 block text-xs text-red-600", role="alert"),
            rx.fragment(),
        )
        if error is not None
        else rx.fragment(),
        # A list's filter: the box and the select side by side, one control high like the filters beside them.
        class_name="flex flex-col gap-2 sm:flex-row sm:items-center" if inline else "",
    )
