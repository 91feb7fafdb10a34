"""Staff set a meeting type's booking rules in the admin dialog: organizer, weekdays and hours, buffers, dates off."""

from __future__ import annotations

import uuid

from sqlmodel import Session, select

from app.models.enums import EmployeeType
from app.models.meeting import MeetingType
from app.ui.admin.meeting_types.state import MeetingTypesState
from tests.ui.harness import call, handler_state, notice, sign_in, staff


def test_the_dialog_saves_and_shows_the_booking_rules(db: Session) -> None:
    person = staff(db, EmployeeType.product_manager)
    name = f"Clinic {uuid.uuid4().hex[:6]}"
    state = handler_state(MeetingTypesState, sign_in(db, person))
    call(state, "load")
    call(state, "open_type", 0)
    assert state.edit.days == [True] * 5 + [False] * 2 and state.edit.opens == "09:00"
    assert str(person.id) in [c.value for c in state.organizers]
    form = {
        "name": name,
        "organizer_id": str(person.id),
        "day_1": "on",
        "day_3": "on",
        "opens": "10:00",
        "closes": "14:30",
        "buffer_after_minutes": "15",
        "min_notice_minutes": "60",
        "horizon_days": "10",
        "dates_off": "2031-01-02",
    }
    call(state, "submit_type", form)
    assert notice(state)["title"] == "Meeting type saved", state.form_errors
    made = db.exec(select(MeetingType).where(MeetingType.name == name)).one()
    db.refresh(made)
    assert made.availability == {"1": [["10:00", "14:30"]], "3": [["10:00", "14:30"]]}
    assert (made.organizer_id, made.buffer_after_minutes, made.horizon_days) == (person.id, 15, 10)
    assert made.dates_off == ["2031-01-02"]
    call(state, "set_search", name)
    call(state, "open_type", made.id)
    assert state.edit.days == [False, True, False, True, False, False, False] and state.edit.closes == "14:30"
    call(state, "submit_type", {**form, "closes": "09:00"})  # closing before opening
    assert "availability" in state.form_errors
    db.delete(made)
    db.commit()
    db.delete(person)  # committed for real
    db.commit()
