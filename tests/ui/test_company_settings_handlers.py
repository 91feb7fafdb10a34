"""The business time zone is chosen by city and offset (issue 26, points 4 and 9): the company settings' select
offers the one zone list, the saved zone first, and a save takes an IANA name from it."""

from __future__ import annotations

from sqlmodel import Session

from app.models.enums import Role
from app.services.platform import company
from app.ui.admin.company.state import CompanySettingsState
from tests import factories as f
from tests.ui.harness import call, handler_state, new_tag, sign_in


def test_the_zone_select_offers_cities_and_offsets_with_the_saved_zone_first(db: Session) -> None:
    admin = f.user(db, f"zones_{new_tag()}", role=Role.admin)
    state = handler_state(CompanySettingsState, sign_in(db, admin), "/admin/settings")
    call(state, "load")
    saved = state.details.business_timezone
    assert state.loaded and state.zone_options[0].value == saved
    labels = {o.value: o.label for o in state.zone_options}
    assert labels["America/Chicago"].startswith("Chicago (UTC")
    assert "US/Eastern" not in labels and "Etc/GMT+5" not in labels  # aliases are not offered
    assert len(labels) == len(state.zone_options)  # no zone twice


def test_without_settings_manage_no_zone_list_is_read(db: Session) -> None:
    client = f.user(db, f"zones_client_{new_tag()}")
    state = handler_state(CompanySettingsState, sign_in(db, client), "/admin/settings")
    call(state, "load")
    assert state.zone_options == [] and not state.loaded
    assert company.zone()  # nothing changed
