"""iCalendar invitations for in-app bookings, mailed through the outbox to the booker and the organizer.

One UID per meeting; every change raises SEQUENCE, so calendars replace the event (REQUEST) or remove it (CANCEL).
Times are UTC (DTSTART/DTEND with Z); the letters name the business time zone, the calendar shows the reader's own.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from icalendar import Calendar, Event, vCalAddress, vText
from sqlmodel import Session

from app.core.config import settings
from app.models.base import utcnow
from app.models.meeting import Meeting, MeetingType
from app.models.user import User
from app.services.platform import company, letters, mail

Method = Literal["REQUEST", "CANCEL"]
NO_LINK = "The link to join will be sent before the meeting."  # the event's text, read on both sides


def uid(m: Meeting) -> str:
    host = urlsplit(settings.public_url).hostname or "localhost"
    return f"meeting-{m.id}@{host}"


def _cn(value: str) -> str:
    # A parameter value cannot hold a double quote or a line break; names are typed by visitors.
    return " ".join(value.replace('"', "'").split())[:100]


def _organizer(s: Session, m: Meeting) -> tuple[str, str]:
    user = s.get(User, m.organizer_id) if m.organizer_id else None
    if user is not None:
        return user.email, " ".join(p for p in (user.first_name, user.last_name) if p) or user.username
    firm = company.profile(s)
    return firm.email, firm.name


def zone() -> ZoneInfo:
    """The business time zone (set in Settings): meeting types' weekly hours and the letters' times are read in it."""
    return company.zone()


def reader_zone(name: str | None) -> ZoneInfo:
    """The zone a booker reads times in (the browser's, when the booking page sent a known one), else the business's."""
    try:
        return ZoneInfo(name) if name and "/" in name and len(name) <= 64 else zone()
    except (ZoneInfoNotFoundError, ValueError):
        return zone()


def local_time(value: datetime, tz: ZoneInfo | None = None) -> str:
    """'Tuesday, December 1, 2026, 10:00 AM EST' in `tz` (default the business time zone)."""
    local = value.astimezone(tz or zone())
    return local.strftime("%A, %B %-d, %Y, %-I:%M %p ") + (local.tzname() or str(local.tzinfo))


def ics(s: Session, m: Meeting, t: MeetingType | None, method: Method, *, manage_link: str | None = None) -> str:
    """The meeting as an iCalendar object with `method`."""
    org_email, org_name = _organizer(s, m)
    firm = company.profile(s).name
    cal = Calendar()
    cal.add("prodid", f"-//{_cn(firm)}//Booking//EN")
    cal.add("version", "2.0")
    cal.add("method", method)
    event = Event()
    event.add("uid", uid(m))
    event.add("sequence", m.sequence)
    event.add("dtstamp", utcnow().astimezone(UTC))
    event.add("dtstart", m.start_time.astimezone(UTC))
    event.add("dtend", m.end_time.astimezone(UTC))
    event.add("summary", f"{t.name if t else m.meeting_type or 'Meeting'} with {firm}")
    details = [f"Join: {m.meeting_url}" if m.meeting_url else NO_LINK]
    if method == "CANCEL":  # the calendar shows what happened, not how to join
        details = ["This meeting was cancelled."]
    elif manage_link:
        details.append(f"Reschedule or cancel: {manage_link}")
    event.add("description", "\n".join(details))
    organizer = vCalAddress(f"mailto:{org_email}")
    organizer.params["cn"] = vText(_cn(org_name))
    event.add("organizer", organizer)
    attendee = vCalAddress(f"mailto:{m.booker_email}")
    attendee.params["cn"] = vText(_cn(m.booker_name or m.booker_email or ""))
    attendee.params["role"] = vText("REQ-PARTICIPANT")
    attendee.params["partstat"] = vText("ACCEPTED")
    event.add("attendee", attendee)
    if m.meeting_url:
        event.add("location", m.meeting_url)
        event.add("url", m.meeting_url)
    event.add("status", "CANCELLED" if method == "CANCEL" else "CONFIRMED")
    cal.add_component(event)
    return cal.to_ical().decode()


def _letter(
    s: Session,
    m: Meeting,
    t: MeetingType | None,
    method: Method,
    manage_link: str | None,
    *,
    staff: bool,
    tz: ZoneInfo,
    previous: datetime | None,
    cancelled_by: str | None,
) -> mail.Letter:
    """The booker's letter (with their manage link) or the organizer's copy (who booked, and their notes), worded for
    what happened: booked, moved (from `previous`, when known) or cancelled (by the booker or by staff)."""
    change = "cancelled" if method == "CANCEL" else "updated" if m.sequence > 0 else "confirmed"
    context = {
        "change": change,
        "kind": t.name if t else m.meeting_type or "Meeting",
        "when": local_time(m.start_time, tz),
        "previous": local_time(previous, tz) if previous is not None and change == "updated" else None,
        "minutes": int((m.end_time - m.start_time).total_seconds() // 60),
        "meeting_url": m.meeting_url,
        "booker_name": m.booker_name or m.booker_email,
        "by_booker": cancelled_by == "booker",
        "reason": m.cancel_reason if change == "cancelled" and cancelled_by == "staff" else None,
    }
    if staff:
        extra = {"booker_email": m.booker_email, "booker_company": m.booker_company, "booker_notes": m.booker_notes}
        return letters.render(s, "booking_for_organizer", **context, **extra)
    return letters.render(s, "booking_for_booker", **context, manage_link=manage_link)


def send(
    s: Session,
    m: Meeting,
    t: MeetingType | None,
    *,
    method: Method,
    manage_link: str | None = None,
    time_zone: str | None = None,
    public: bool = True,
    previous: datetime | None = None,
    cancelled_by: str | None = None,
) -> None:
    """Mail the invitation (or its update or cancellation) to the booker and the organizer, in the caller's
    transaction. The organizer's copy carries no manage link: it belongs to the booker. The booker's letter gives the
    time in `time_zone` (their browser's, when known), the organizer's in the business time zone. A move names the
    time it moved from (`previous`); a cancellation says who cancelled (`cancelled_by`: "booker" or "staff").

    `public` (the default: the booking page and its manage links are open to anyone) counts both copies against the
    outbox's daily caps, the organizer's too: a manage link must not be a way to flood either inbox. Staff changes
    pass False."""
    filename = "cancel.ics" if method == "CANCEL" else "invite.ics"
    content_type = f"text/calendar; method={method}"
    org_email, _ = _organizer(s, m)
    staff_to = org_email if m.organizer_id else settings.staff_notify_email
    for to, staff in ((m.booker_email, False), (staff_to, True)):
        if not to:
            continue
        link = None if staff else manage_link
        tz = zone() if staff else reader_zone(time_zone)
        letter = _letter(s, m, t, method, link, staff=staff, tz=tz, previous=previous, cancelled_by=cancelled_by)
        attachment = mail.Attachment(filename, content_type, ics(s, m, t, method, manage_link=link))
        mail.enqueue(s, to=to, letter=letter, attachments=[attachment], public=public)


def ask_to_confirm(
    s: Session, m: Meeting, t: MeetingType | None, *, confirm_link: str, time_zone: str | None = None
) -> None:
    """Mail the booker of an unconfirmed hold the link that confirms it, in the caller's transaction. No invitation
    and nothing to the organizer: until the address is proven, no calendar holds the meeting."""
    tz = reader_zone(time_zone)
    letter = letters.render(
        s,
        "booking_confirm_request",
        kind=t.name if t else m.meeting_type or "Meeting",
        when=local_time(m.start_time, tz),
        until=local_time(m.hold_expires_at or m.start_time, tz),
        minutes=int((m.end_time - m.start_time).total_seconds() // 60),
        confirm_link=confirm_link,
    )
    mail.enqueue(s, to=m.booker_email or "", letter=letter, public=True)
