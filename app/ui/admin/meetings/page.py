"""The Meetings section's page: the meetings list above the meeting types panel, each loaded by its own state."""

from __future__ import annotations

import reflex as rx

from app.ui.admin.meeting_types.state import MeetingTypesState
from app.ui.admin.meeting_types.views import meeting_types_panel
from app.ui.admin.meetings.state import MeetingsState
from app.ui.admin.meetings.views import meetings_list

LOADERS = [MeetingsState.load, MeetingTypesState.load]


def meetings_content() -> rx.Component:
    return rx.el.div(meetings_list(), meeting_types_panel())
