"""In-app booking without an outside service: free slots of a meeting type, and booking, rescheduling or cancelling one.

Slots come from the type's weekly hours in the business time zone (so a daylight-saving change moves them in UTC, not
on the wall clock), minus dates off, the minimum notice, the horizon, and the organizer's other scheduled meetings with
the buffers around them. A booking is checked against the same slots while the organizer's calendar is locked (an
advisory lock on PostgreSQL, the single write lock on SQLite), and the database refuses overlapping bookings anyway
(an exclusion constraint on PostgreSQL, a unique start time on both): two requests for one slot give one booking.

The booker gets a manage link (a random token stored as a keyed hash). Each move mails a new one, and every link
mailed before it keeps opening the booking as it is now (`BookingLink`, ADR 0089): moved, cancelled or past, with what
the booker may still do (move or cancel while it is ahead). Rescheduling and cancelling count against the booking
limit of the address, and a booking moves at most MOVES_PER_DAY times a day (each move mails both sides). A signed-in
client moves their own bookings from the portal by the same rules (`client_reschedule`).

What the anonymous public can hold is bounded (Cal.com's "requires confirmation" with booker e-mail verification): a
booking made signed out is `unconfirmed` and holds its slot only for `BOOKING_HOLD_MINUTES`, until the booker opens
the link mailed to them and confirms; only then is the organizer mailed, and the booking linked to the client account
with that (now proven) address. Open holds are capped per e-mail, per address (an IPv6 one by its /64) and per
organizer; expired holds are released under the calendar lock before any slot is checked, and by the background job.
A signed-in client's booking is confirmed at once and is the only kind linked to an account without that proof.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from sqlalchemy import and_, func, or_, text, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.core.config import settings
from app.core.errors import Conflict, Invalid, NotFound, TooManyRequests
from app.core.net import network
from app.core.security import new_token, token_digest
from app.models.base import utcnow
from app.models.enums import MeetingStatus, Role
from app.models.meeting import BookingLink, Meeting, MeetingType
from app.models.user import User
from app.services.platform import audit, ratelimit
from app.services.platform.actions import Action
from app.services.platform.rules import one_line
from app.services.platform.schema import CHECK_FIELDS, Body, Day, Email, Moment, Text, Whole, parse, required, verbatim
from app.services.scheduling import booking_invite
from app.services.scheduling.booking_invite import zone

MAX_DAYS = 31
STEP_MINUTES = 30  # slots start every half hour (or every `duration` for shorter meetings)
TAKEN = "This time is no longer available. Please choose another time."
STARTED = "This meeting has already started, so it can no longer be changed."
UNKNOWN_LINK = "This booking link is not valid. Please use the latest link we e-mailed you, or contact us."
CANCELLED = "This meeting was cancelled, so it can no longer be changed."
NOT_MOVABLE = "This meeting cannot be moved online. Please contact us."
TOO_MANY = "Too many bookings from your address. Please try again later or contact us directly."
BOOKINGS_PER_ADDRESS = 10  # per client IP address an hour, attempts included
BOOKINGS_PER_EMAIL = 5  # stored bookings per e-mail address a day
# Open unconfirmed holds: per e-mail, per address (IPv4 address or IPv6 /64), and per organizer at most a fifth of
# what they can offer (never fewer than HOLDS_MIN). A crowd of addresses then holds a bounded share for half an hour.
HOLDS_PER_EMAIL = 2
HOLDS_PER_ADDRESS = 2
HOLD_SHARE = 5
HOLDS_MIN = 3
MOVES_PER_DAY = 3  # successful reschedules of one booking a day
TOO_MANY_HOLDS = (
    "You already have bookings waiting for confirmation. Please confirm them from the e-mail we sent, "
    "or sign in to book."
)
HOLDS_FULL = "Too many bookings are waiting for confirmation right now. Please try again later, or sign in to book."
MOVED_TOO_OFTEN = (
    f"This booking has been moved {MOVES_PER_DAY} times today, the most we allow. Please contact us to change it."
)
CONFIRM_FIRST = "Please confirm your booking from the link we e-mailed you first."
UNKNOWN_CONFIRM = "This confirmation link is not valid any more."
HOLD_EXPIRED = "This booking was not confirmed in time, so its time was released. Please book again."
EXPIRED_REASON = "Not confirmed in time"
NAME_MAX = 100
CHOOSE_TIME = "Please choose a time."


def iso(value: datetime) -> str:
    """UTC ISO 8601 with a Z, as the API answers times."""
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Slot:
    start: datetime
    end: datetime

    def public(self) -> SlotOut:
        return SlotOut(start=iso(self.start), end=iso(self.end))


# --- what a visitor is answered (the interface's JSON names, camelCase) ---------------------------------------------


class BookingType(BaseModel):
    slug: str
    name: str
    durationMinutes: int  # noqa: N815 (the interface's JSON names)
    description: str | None


class SlotOut(BaseModel):
    start: str
    end: str


class Booking(BaseModel):
    id: int
    type: str | None
    typeName: str | None  # noqa: N815
    start: str
    end: str
    status: str
    name: str | None
    email: str | None
    company: str | None
    notes: str | None
    joinUrl: str | None  # noqa: N815
    holdExpiresAt: str | None = None  # noqa: N815 (an unconfirmed hold's end)
    manageUrl: str | None = None  # noqa: N815 (with a new manage link only: the answer to a booking or a move)
    canChange: bool | None = None  # noqa: N815 (the manage page only: whether it may still be moved)
    # A cancelled booking (the manage page only): when, by whom ("booker", "staff" or "expired": a hold not confirmed
    # in time) and the reason staff gave, if any.
    cancelledAt: str | None = None  # noqa: N815
    cancelledBy: str | None = None  # noqa: N815
    cancelReason: str | None = None  # noqa: N815


class ManagedBooking(Booking):
    """The booking a manage link opens, with what its booker may do with it (ADR 0065; the REST answer is the
    `Booking` with its `canChange`)."""

    can_reschedule: Action  # confirmed and not started (reschedule)
    can_cancel: Action  # not started (cancel)
    can_add_to_calendar: Action  # confirmed: its invitation file exists (calendar_file)


# The answer to a booking: a `Booking` narrowed to what the booker needs next. (A docstring here would be the schema's
# description in the OpenAPI document.)
class Booked(BaseModel):
    id: int
    start: str
    end: str
    status: str  # "unconfirmed" (signed out: confirm from the mailed link) or "scheduled"
    holdExpiresAt: str | None  # noqa: N815 (until when an unconfirmed booking holds its slot)
    joinUrl: str | None  # noqa: N815
    manageUrl: str  # noqa: N815


# --- meeting types and slots ----------------------------------------------------------------------------------------


def active_types(s: Session) -> list[MeetingType]:
    query = select(MeetingType).where(col(MeetingType.is_active).is_(True))
    return list(s.exec(query.order_by(col(MeetingType.sort_order), col(MeetingType.id))).all())


def type_json(t: MeetingType) -> BookingType:
    return BookingType(slug=t.slug, name=t.name, durationMinutes=t.duration_minutes, description=t.description)


def list_types(s: Session) -> list[BookingType]:
    """The active meeting types a visitor can book (public)."""
    return [type_json(t) for t in active_types(s)]


def get_type(s: Session, slug: str, *, message: str = "Please choose a meeting type.") -> MeetingType:
    row = s.exec(select(MeetingType).where(MeetingType.slug == (slug or ""))).first()
    if row is None or not row.is_active:
        raise Invalid(message, errors={"type": "Unknown meeting type"})
    return row


def _at(day: date, hhmm: str, tz: ZoneInfo) -> datetime:
    """The UTC instant of a wall-clock time in the business zone ("24:00" is the next midnight)."""
    if hhmm == "24:00":
        day, hhmm = day + timedelta(days=1), "00:00"
    hour, minute = (int(p) for p in hhmm.split(":"))
    return datetime.combine(day, time(hour, minute), tzinfo=tz).astimezone(UTC)


def _busy(
    s: Session, t: MeetingType, lo: datetime, hi: datetime, exclude_id: int | None
) -> list[tuple[datetime, datetime]]:
    """The organizer's scheduled meetings and open holds near [lo, hi), each widened by its own type's buffers.
    A hold past its expiry blocks nothing, released yet or not."""
    held = and_(col(Meeting.status) == MeetingStatus.unconfirmed, col(Meeting.hold_expires_at) > utcnow())
    query = (
        select(
            Meeting.start_time, Meeting.end_time, MeetingType.buffer_before_minutes, MeetingType.buffer_after_minutes
        )
        .outerjoin(MeetingType, col(Meeting.meeting_type_id) == col(MeetingType.id))
        .where(or_(col(Meeting.status) == MeetingStatus.scheduled, held))
        .where(col(Meeting.start_time) < hi + timedelta(days=1), col(Meeting.end_time) > lo - timedelta(days=1))
    )
    query = query.where(_organizer_is(t.organizer_id))
    if exclude_id is not None:
        query = query.where(Meeting.id != exclude_id)
    return [
        (start - timedelta(minutes=before or 0), end + timedelta(minutes=after or 0))
        for start, end, before, after in s.exec(query).all()
    ]


def slots_for(
    s: Session,
    t: MeetingType,
    *,
    first_day: date,
    days: int,
    now: datetime | None = None,
    exclude_id: int | None = None,
) -> list[Slot]:
    """Free slots of a type on `days` business-zone days from `first_day`, respecting notice, horizon and buffers."""
    now = now or utcnow()
    tz = zone()
    earliest = now + timedelta(minutes=t.min_notice_minutes)
    latest = now + timedelta(days=t.horizon_days)
    length = timedelta(minutes=t.duration_minutes)
    step = timedelta(minutes=min(STEP_MINUTES, t.duration_minutes))
    before, after = timedelta(minutes=t.buffer_before_minutes), timedelta(minutes=t.buffer_after_minutes)
    days_off = set(t.dates_off or [])
    candidates: list[Slot] = []
    for offset in range(max(0, min(days, MAX_DAYS))):
        day = first_day + timedelta(days=offset)
        if day.isoformat() in days_off:
            continue
        for opens, closes in (t.availability or {}).get(str(day.weekday()), []):
            start, end = _at(day, opens, tz), _at(day, closes, tz)
            while start + length <= end:
                if earliest <= start <= latest:
                    candidates.append(Slot(start, start + length))
                start += step
    if not candidates:
        return []
    busy = _busy(s, t, candidates[0].start, candidates[-1].end, exclude_id)
    return [
        c
        for c in candidates
        if not any(c.start - before < b_end and c.end + after > b_start for b_start, b_end in busy)
    ]


def zone_today() -> date:
    return datetime.now(zone()).date()


# --- what a booker sends ---------------------------------------------------------------------------------------


def _field(label: str, limit: int, **rules: Any) -> Text:
    # Every refusal of the booking form is headed "Please check the highlighted fields.", each field with its own words.
    return Text(label, limit, summary=CHECK_FIELDS, **rules)


# A meeting type, by the slug /booking/types lists; an unknown one is the service's to word ("Unknown meeting type").
TypeSlug = Annotated[
    str, BeforeValidator(verbatim), Field(max_length=100, description="A meeting type's slug, as /booking/types lists.")
]


class SlotsQuery(Body):
    """Which free slots to list: a meeting type's, on `days` (1 to 31) business-zone days from `from` (today when not
    sent)."""

    model_config = ConfigDict(populate_by_name=True)

    type: TypeSlug
    from_: Annotated[date | None, Day("From")] = Field(None, alias="from")
    days: Annotated[int | None, Whole("Days", 1, MAX_DAYS)] = 7


class BookingTime(Body):
    """A time to book or to move a booking to, and the booker's time zone (the times in their letter are in it)."""

    model_config = ConfigDict(populate_by_name=True)

    start: Annotated[
        datetime,
        Moment(
            "Start",
            required=True,
            unreadable=CHOOSE_TIME,
            missing=CHOOSE_TIME,
            no_zone="The time needs a time zone (e.g. 2026-12-01T15:00:00Z).",
            summary=CHECK_FIELDS,
        ),
    ]
    time_zone: Annotated[str | None, _field("Time zone", 64)] = Field(
        None, alias="timeZone", description="The booker's IANA time zone (e.g. Europe/Paris); else the business's."
    )


class BookingBase(BookingTime):
    """What a signed-in client sends to book: a type and a free start. They book as themselves: the name and the
    e-mail address are the account's, and so is the company unless another is sent."""

    type: TypeSlug
    company: Annotated[str | None, _field("Company", 200, one_line=True)] = None
    notes: Annotated[str | None, _field("Notes", 2000)] = None


class BookingCreate(BookingBase):
    """A visitor's booking, which also says who books."""

    model_config = ConfigDict(json_schema_extra=required("name", "email"))

    name: Annotated[str | None, _field("Name", NAME_MAX, required=True, one_line=True)] = Field(
        None, validate_default=True
    )
    email: Annotated[str | None, Email("Please enter a valid email address.", summary=CHECK_FIELDS)] = Field(
        None, validate_default=True
    )


def free_slots(s: Session, *, data: SlotsQuery | Mapping[str, Any]) -> list[SlotOut]:
    """The free slots of an active type (public), in UTC."""
    query = parse(SlotsQuery, data)
    t = get_type(s, query.type)
    first, days = query.from_ or zone_today(), query.days or 7
    return [slot.public() for slot in slots_for(s, t, first_day=first, days=days)]


# --- booking, rescheduling, cancelling ------------------------------------------------------------------------------


def _digest(token: str) -> str:
    return token_digest(f"booking-manage:{token}")


def _confirm_digest(token: str) -> str:
    return token_digest(f"booking-confirm:{token}")


def manage_url(token: str) -> str:
    return f"{settings.public_url}/book-meeting/manage?token={token}"


def confirm_url(token: str) -> str:
    return f"{settings.public_url}/book-meeting/confirm?token={token}"


def _organizer_is(organizer_id: uuid.UUID | None) -> Any:
    # No organizer: the company's one shared calendar.
    return col(Meeting.organizer_id).is_(None) if organizer_id is None else col(Meeting.organizer_id) == organizer_id


def _lock_calendar(s: Session, t: MeetingType, *holders: str) -> None:
    """Serialise bookings of one organizer (and of the given booker keys: their open holds are counted across
    organizers) until the transaction ends, so the checks see every earlier booking; then release the organizer's
    expired holds, so the database's own guards no longer count them either."""
    if s.get_bind().dialect.name == "postgresql":
        names = [f"booking-calendar:{t.organizer_id}", *(f"booking-holder:{h}" for h in holders)]
        keys = sorted({int(token_digest(n)[:15], 16) for n in names})  # one order: two lockers cannot deadlock
        s.connection().execute(
            text("SELECT pg_advisory_xact_lock(k) FROM (SELECT unnest(CAST(:keys AS bigint[])) AS k ORDER BY k) AS o"),
            {"keys": keys},
        )
    else:  # SQLite: a write takes the database's single write lock before the check reads anything
        s.connection().execute(text("UPDATE meeting_types SET sort_order = sort_order WHERE id = :id"), {"id": t.id})
    _release(s, _organizer_is(t.organizer_id))


def _release(s: Session, *where: Any) -> int:
    """Expired holds stop holding: cancelled (the confirmation link then says "expired"; the manage link shows the
    booking released)."""
    now = utcnow()
    done = s.exec(
        update(Meeting)
        .where(col(Meeting.status) == MeetingStatus.unconfirmed, col(Meeting.hold_expires_at) <= now, *where)
        .values(
            status=MeetingStatus.cancelled,
            cancel_reason=EXPIRED_REASON,
            cancelled_at=col(Meeting.hold_expires_at),
            cancelled_by="expired",
            updated_at=now,
        )
    )
    return int(done.rowcount or 0)


def release_expired(s: Session) -> int:
    """Release every expired hold (the background job's pass); commits; how many were released."""
    released = _release(s)
    s.commit()
    return released


def _open_holds(s: Session, *where: Any) -> int:
    query = (
        select(func.count())
        .select_from(Meeting)
        .where(col(Meeting.status) == MeetingStatus.unconfirmed, col(Meeting.hold_expires_at) > utcnow(), *where)
    )
    return int(s.exec(query).one())


def _check_holds(s: Session, t: MeetingType, email: str, address: str | None) -> None:
    """Refuse a new hold (429) past the caps on open holds per e-mail, per address and per organizer."""
    over = _open_holds(s, col(Meeting.booker_email) == email) >= HOLDS_PER_EMAIL or (
        address is not None and _open_holds(s, col(Meeting.booker_address_hash) == address) >= HOLDS_PER_ADDRESS
    )
    if over:
        s.rollback()
        raise TooManyRequests(TOO_MANY_HOLDS)
    held = _open_holds(s, _organizer_is(t.organizer_id))
    free = len(slots_for(s, t, first_day=zone_today(), days=min(t.horizon_days + 1, MAX_DAYS)))
    if held >= max(HOLDS_MIN, (held + free) // HOLD_SHARE):
        s.rollback()
        raise TooManyRequests(HOLDS_FULL)


def _offered(s: Session, t: MeetingType, start: datetime, exclude_id: int | None = None) -> Slot:
    day = start.astimezone(zone()).date()
    for slot in slots_for(s, t, first_day=day, days=1, exclude_id=exclude_id):
        if slot.start == start:
            return slot
    raise Conflict(TAKEN)


def _join_url(t: MeetingType) -> str | None:
    template = t.join_url or settings.meeting_room_url
    if not template:
        return None
    return template.replace("{room}", f"{t.slug[:40]}-{secrets.token_hex(8)}")


def booking_json(
    m: Meeting, t: MeetingType | None, token: str | None = None, *, can_change: bool | None = None
) -> Booking:
    assert m.id is not None  # a booking is answered once stored
    return Booking(
        id=m.id,
        type=t.slug if t else None,
        typeName=t.name if t else m.meeting_type,
        start=iso(m.start_time),
        end=iso(m.end_time),
        status=str(m.status),
        name=m.booker_name,
        email=m.booker_email,
        company=m.booker_company,
        notes=m.booker_notes,
        joinUrl=m.meeting_url,
        holdExpiresAt=iso(m.hold_expires_at) if m.hold_expires_at else None,
        manageUrl=manage_url(token) if token is not None else None,
        canChange=can_change,
    )


def _as_now(m: Meeting) -> dict[str, Any]:
    """What a manage link says of a booking beyond its time: a cancelled one's when, by whom and why (a staff
    reason only: the others are the product's own words). A hold past its expiry is shown released, whether the
    background job has released it yet or not."""
    if m.status == MeetingStatus.unconfirmed and not _holds(m):
        return {
            "status": str(MeetingStatus.cancelled),
            "cancelledAt": iso(m.hold_expires_at or m.start_time),
            "cancelledBy": "expired",
        }
    if m.status != MeetingStatus.cancelled:
        return {}
    return {
        "cancelledAt": iso(m.cancelled_at) if m.cancelled_at else None,
        "cancelledBy": m.cancelled_by,
        "cancelReason": m.cancel_reason if m.cancelled_by == "staff" else None,
    }


@dataclass(frozen=True)
class _Booker:
    form: BookingBase
    name: str
    email: str
    company: str | None
    client: User | None


def _booker(s: Session, actor: User | None, data: BookingBase | Mapping[str, Any]) -> _Booker:
    if actor is not None and actor.role == Role.client:  # a signed-in client books as themselves
        form = parse(BookingBase, data)
        # Cut to the form's limit: a long account name is no reason to refuse a booking the client cannot correct.
        full = one_line(" ".join(p for p in (actor.first_name, actor.last_name) if p) or actor.username)[:NAME_MAX]
        return _Booker(form, full, actor.email, form.company or actor.company, actor)
    # A client's form sent on its own is checked as a visitor's: it must then say who books. Whatever address it
    # gives, the booking belongs to no account: anyone can type a client's address (it is linked on confirmation).
    guest = parse(BookingCreate, data if isinstance(data, BookingCreate | Mapping) else data.sent())
    assert guest.name and guest.email  # required by the model
    return _Booker(guest, guest.name, guest.email, guest.company, None)


def admit(s: Session, *, ip: str | None) -> None:
    """Count a booking, reschedule or cancel attempt from an address (an IPv6 one by its /64), well-formed or not, and
    refuse it past the hourly limit (429), so nobody probes slots or floods inboxes from one address. Committed at
    once."""
    if key := network(ip):
        ratelimit.acquire(s, ratelimit.Limit(f"booking:ip:{key}", BOOKINGS_PER_ADDRESS, timedelta(hours=1), TOO_MANY))


def book(
    s: Session,
    *,
    data: BookingBase | Mapping[str, Any],
    ip: str | None = None,
    actor: User | None = None,
    admitted: bool = False,
) -> Booking:
    """Book a free slot (public); mails the invitation; commits. `data` is a `BookingCreate`; a signed-in client
    books as themselves and needs only a `BookingBase`. `admitted`: the caller has counted the attempt with `admit`
    (the API does, before it reads the body); otherwise it is counted here, before anything else.

    A visitor's booking is an unconfirmed hold: the booker alone is mailed a confirmation link, and the caps on open
    holds apply. Returns the booking with its manage link. 409 when the slot is taken or not offered, 422 for bad
    input, 429 when the address books too often or holds too much.
    """
    if not admitted:
        admit(s, ip=ip)
    booker = _booker(s, actor, data)
    form = booker.form
    t = get_type(s, form.type, message=CHECK_FIELDS)
    limit = ratelimit.Limit(f"booking:email:{booker.email}", BOOKINGS_PER_EMAIL, timedelta(days=1), TOO_MANY)
    if not ratelimit.claim(s, limit):
        s.rollback()
        raise TooManyRequests(TOO_MANY)
    verified = booker.client is not None  # a signed-in client: their account's address is proven
    address = token_digest(f"booking-address:{key}") if (key := network(ip)) else None
    if verified:
        _lock_calendar(s, t)
    else:
        _lock_calendar(s, t, booker.email, *([address] if address else []))
        _check_holds(s, t, booker.email, address)
    slot = _offered(s, t, form.start)
    token = new_token()
    confirm = None if verified else new_token()
    meeting = Meeting(
        title=f"{t.name} with {booker.name}"[:200],
        description=form.notes,
        meeting_type=t.name[:100],
        meeting_type_id=t.id,
        start_time=slot.start,
        end_time=slot.end,
        meeting_url=_join_url(t),
        attendees=[booker.email],
        organizer_id=t.organizer_id,
        client_id=booker.client.id if booker.client else None,
        booker_name=booker.name,
        booker_email=booker.email,
        booker_company=booker.company,
        booker_notes=form.notes,
        manage_token_hash=_digest(token),
    )
    if confirm is not None:
        meeting.status = MeetingStatus.unconfirmed
        meeting.hold_expires_at = utcnow() + timedelta(minutes=settings.booking_hold_minutes)
        meeting.confirm_token_hash = _confirm_digest(confirm)
        meeting.booker_address_hash = address
    s.add(meeting)
    _flush_or_taken(s)
    if confirm is None:
        return _tell(
            s, meeting, t, "REQUEST", "meeting.book", token=token, time_zone=form.time_zone, actor=actor, ip=ip
        )
    # The organizer hears of it only once it is confirmed; the booker is asked to confirm, nothing else is sent.
    booking_invite.ask_to_confirm(s, meeting, t, confirm_link=confirm_url(confirm), time_zone=form.time_zone)
    audit.record(s, actor=actor, action="meeting.hold", entity=meeting, ip=ip)
    s.commit()
    return booking_json(meeting, t, token)


def _tell(
    s: Session,
    meeting: Meeting,
    t: MeetingType | None,
    method: booking_invite.Method,
    action: str,
    *,
    token: str | None = None,
    time_zone: str | None,
    actor: User | None = None,
    ip: str | None,
    details: dict[str, Any] | None = None,
    notify: bool = True,
    previous: datetime | None = None,
) -> Booking:
    """Mail both sides the invitation (REQUEST, with the booker's new manage link; `previous`: the time it moved
    from) or its cancellation, unless not `notify`; audit the change; commit. The booking as answered."""
    link = manage_url(token) if token else None
    if notify:
        booking_invite.send(
            s, meeting, t, method=method, manage_link=link, time_zone=time_zone, previous=previous,
            cancelled_by=meeting.cancelled_by,
        )  # fmt: skip
    audit.record(s, actor=actor, action=action, entity=meeting, ip=ip, details=details)
    s.commit()
    return booking_json(meeting, t, token)


def _flush_or_taken(s: Session) -> None:
    try:
        s.flush()
    except IntegrityError:  # the database's own guard: another booking got there first
        s.rollback()
        raise Conflict(TAKEN) from None


def _by_token(s: Session, token: str, *, for_update: bool = False) -> tuple[Meeting, MeetingType | None]:
    """The booking a manage link opens, whatever its state: the newest link or any mailed before it (ADR 0089). 404
    only for a token that was never a link of any booking."""
    digest = _digest(token or "")
    earlier = select(BookingLink.meeting_id).where(BookingLink.token_hash == digest).scalar_subquery()
    query = select(Meeting).where(or_(col(Meeting.manage_token_hash) == digest, col(Meeting.id) == earlier))
    if for_update and s.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(of=Meeting)
    meeting = s.exec(query).first() if token else None
    if meeting is None:
        raise NotFound(UNKNOWN_LINK)
    t = s.get(MeetingType, meeting.meeting_type_id) if meeting.meeting_type_id else None
    return meeting, t


def _holds(m: Meeting) -> bool:
    """Scheduled, or an unconfirmed hold that has not expired."""
    if m.status == MeetingStatus.unconfirmed:
        return m.hold_expires_at is not None and m.hold_expires_at > utcnow()
    return m.status == MeetingStatus.scheduled


def _refuse_change(m: Meeting) -> None:
    """A booking no longer held (cancelled, released, completed) or already started cannot be moved or cancelled."""
    if m.status == MeetingStatus.cancelled or (not _holds(m) and m.status != MeetingStatus.completed):
        raise Conflict(CANCELLED)
    if m.status == MeetingStatus.completed or m.start_time <= utcnow():
        raise Conflict(STARTED)


def get_booking(s: Session, *, token: str) -> ManagedBooking:
    """The booking a manage link opens (public, by token), as it is now, with what its booker may do: any link ever
    mailed for it opens it, moved, cancelled or past; 404 only for a token that is no link. An unconfirmed hold can
    be cancelled, not moved; nothing can be done once it has started or ended."""
    meeting, t = _by_token(s, token)
    held, ahead = _holds(meeting), meeting.start_time > utcnow()
    confirmed = meeting.status == MeetingStatus.scheduled
    return ManagedBooking(
        **{**booking_json(meeting, t, can_change=confirmed and ahead).model_dump(), **_as_now(meeting)},
        can_reschedule=confirmed and ahead,
        can_cancel=held and ahead,
        can_add_to_calendar=confirmed and ahead,
    )


def _move(
    s: Session,
    meeting: Meeting,
    t: MeetingType,
    start: datetime,
    *,
    time_zone: str | None,
    actor: User | None,
    ip: str | None,
    relock: Any,
) -> Booking:
    """Move a scheduled booking to a free slot of its type, under the organizer's calendar lock and the per-booking
    move limit; mail both sides the updated invitation, the booker with a new manage link (the one before it is kept:
    it still opens the booking); commit. `relock` reads the meeting again under the lock (a parallel change may have
    won)."""
    # Counted per booking (its id outlives the links); a refused or failed move rolls back and counts nothing.
    moves = ratelimit.Limit(f"booking:moves:{meeting.id}", MOVES_PER_DAY, timedelta(days=1), MOVED_TOO_OFTEN)
    if not ratelimit.claim(s, moves):
        s.rollback()
        raise TooManyRequests(MOVED_TOO_OFTEN)
    _lock_calendar(s, t)
    meeting, t2 = relock()
    _refuse_change(meeting)
    if meeting.status != MeetingStatus.scheduled:
        raise Conflict(CONFIRM_FIRST)
    slot = _offered(s, t, start, exclude_id=meeting.id)
    before = meeting.start_time
    new = new_token()
    assert meeting.id is not None  # a stored booking
    if meeting.manage_token_hash is not None:  # the mailed link it replaces keeps opening the booking
        s.add(BookingLink(token_hash=meeting.manage_token_hash, meeting_id=meeting.id))
    meeting.start_time, meeting.end_time = slot.start, slot.end
    meeting.sequence += 1
    meeting.manage_token_hash = _digest(new)
    s.add(meeting)
    _flush_or_taken(s)
    details = {"from": iso(before), "to": iso(slot.start)}
    return _tell(
        s, meeting, t2, "REQUEST", "meeting.reschedule", token=new, time_zone=time_zone, actor=actor, ip=ip,
        details=details, previous=before,
    )  # fmt: skip


def reschedule(
    s: Session,
    *,
    token: str,
    data: BookingTime | Mapping[str, Any],
    ip: str | None = None,
    admitted: bool = False,
) -> Booking:
    """Move a booking to another free slot from any of its manage links; the invitation is updated and a new manage
    link mailed (the earlier ones keep working); commits. Counted against the address's booking limit (`admitted`:
    the caller has counted it), and refused (429) past MOVES_PER_DAY moves of the booking in a day. 404 for a token
    that is no link whatever else was sent; 409 for a booking cancelled, started or not confirmed yet."""
    if not admitted:
        admit(s, ip=ip)
    meeting, t = _by_token(s, token)
    form = parse(BookingTime, data)
    _refuse_change(meeting)
    if meeting.status == MeetingStatus.unconfirmed:
        raise Conflict(CONFIRM_FIRST)
    if t is None:
        raise Conflict(NOT_MOVABLE)
    return _move(
        s, meeting, t, form.start, time_zone=form.time_zone, actor=None, ip=ip,
        relock=lambda: _by_token(s, token, for_update=True),
    )  # fmt: skip


def cancel(
    s: Session, *, token: str, ip: str | None = None, time_zone: str | None = None, admitted: bool = False
) -> Booking:
    """Cancel a booking from any of its manage links; the slot is free again and both sides get a cancellation; the
    links then show it cancelled; commits. Counted against the address's booking limit (`admitted`: the caller has
    counted it). An unconfirmed hold is cancelled without mail: no calendar holds it yet. 409 once it is cancelled or
    has started."""
    if not admitted:
        admit(s, ip=ip)
    meeting, t = _by_token(s, token)
    confirmed = meeting.status == MeetingStatus.scheduled
    _refuse_change(meeting)
    # Atomic on the status it was read with: of two parallel cancels, one wins and the other finds it cancelled.
    now = utcnow()
    done = s.exec(
        update(Meeting)
        .where(col(Meeting.id) == meeting.id, col(Meeting.status) == meeting.status)
        .values(
            status=MeetingStatus.cancelled,
            confirm_token_hash=None,
            sequence=Meeting.sequence + 1,
            cancel_reason="Cancelled by the booker",
            cancelled_at=now,
            cancelled_by="booker",
            updated_at=now,
        )
    )
    if done.rowcount != 1:
        s.rollback()
        raise Conflict(CANCELLED)
    s.refresh(meeting)
    details = {"reason": "booker"}
    return _tell(
        s, meeting, t, "CANCEL", "meeting.cancel", time_zone=time_zone, ip=ip, details=details, notify=confirmed
    )


def calendar_file(s: Session, *, token: str) -> str:
    """The booking as an iCalendar file (the confirmation's "Add to calendar"); 404 for a token that is no link, 409
    while it waits for confirmation or once it is cancelled."""
    meeting, t = _by_token(s, token)
    if meeting.status == MeetingStatus.cancelled or not _holds(meeting):
        raise Conflict(CANCELLED)
    if meeting.status != MeetingStatus.scheduled:
        raise Conflict(CONFIRM_FIRST)
    return booking_invite.ics(s, meeting, t, "REQUEST", manage_link=manage_url(token))


# --- a signed-in client moving their own booking (the portal) --------------------------------------------------------


def _own(s: Session, actor: User, meeting_id: int, *, for_update: bool = False) -> tuple[Meeting, MeetingType]:
    """The actor's own in-app booking that can still be moved: scheduled, ahead, booked by a meeting type. Someone
    else's meeting is a 404, as if it did not exist (its id tells nothing); 409 for one of theirs that cannot move."""
    query = select(Meeting).where(col(Meeting.id) == meeting_id)
    if for_update and s.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    meeting = s.exec(query).first()
    if meeting is None or actor.role != Role.client or meeting.client_id != actor.id:
        raise NotFound("Meeting not found")
    _refuse_change(meeting)
    if meeting.status != MeetingStatus.scheduled:
        raise Conflict(CONFIRM_FIRST)
    t = s.get(MeetingType, meeting.meeting_type_id) if meeting.meeting_type_id else None
    if t is None or meeting.manage_token_hash is None:  # staff's or Calendly's meeting: not one of the booking's
        raise Conflict(NOT_MOVABLE)
    return meeting, t


class MoveSlotsQuery(Body):
    """Which free times to offer for moving a booking: on `days` (1 to 31) business-zone days from `from` (today when
    not sent)."""

    model_config = ConfigDict(populate_by_name=True)

    from_: Annotated[date | None, Day("From")] = Field(None, alias="from")
    days: Annotated[int | None, Whole("Days", 1, MAX_DAYS)] = 7


def client_slots(
    s: Session, *, actor: User, meeting_id: int, data: MoveSlotsQuery | Mapping[str, Any]
) -> list[SlotOut]:
    """The free times the client's own booking can move to, by its type's rules (the public booking's slots, the
    booking's own time not counted as busy). 404 for someone else's meeting, 409 for one that cannot move."""
    query = parse(MoveSlotsQuery, data)
    meeting, t = _own(s, actor, meeting_id)
    first, days = query.from_ or zone_today(), query.days or 7
    return [slot.public() for slot in slots_for(s, t, first_day=first, days=days, exclude_id=meeting.id)]


def client_reschedule(
    s: Session, *, actor: User, meeting_id: int, data: BookingTime | Mapping[str, Any], ip: str | None = None
) -> Booking:
    """Move the signed-in client's own booking to a free time (the portal): the same rules as a manage link's move
    (offered slots, MOVES_PER_DAY, the calendar lock) and the same mails to both sides; commits. 404 for someone
    else's meeting; 409 for a past, cancelled or not-booked-online one, or a time no longer free."""
    form = parse(BookingTime, data)
    meeting, t = _own(s, actor, meeting_id)
    return _move(
        s, meeting, t, form.start, time_zone=form.time_zone, actor=actor, ip=ip,
        relock=lambda: _own(s, actor, meeting_id, for_update=True),
    )  # fmt: skip


# --- confirming a hold from the mailed link --------------------------------------------------------------------------


def _by_confirm(s: Session, token: str, *, for_update: bool = False) -> tuple[Meeting, MeetingType | None]:
    query = select(Meeting).where(Meeting.confirm_token_hash == _confirm_digest(token or ""))
    if for_update and s.get_bind().dialect.name == "postgresql":
        query = query.with_for_update()
    meeting = s.exec(query).first() if token else None
    if meeting is None:
        raise NotFound(UNKNOWN_CONFIRM)
    if not _holds(meeting):  # released on expiry (confirmed or cancelled holds keep no confirmation link)
        raise Conflict(HOLD_EXPIRED)
    t = s.get(MeetingType, meeting.meeting_type_id) if meeting.meeting_type_id else None
    return meeting, t


def get_confirmation(s: Session, *, token: str) -> Booking:
    """The hold a confirmation link opens (public, by the mailed token): 404 for an unknown or used link, 409 when it
    expired."""
    meeting, t = _by_confirm(s, token)
    return booking_json(meeting, t)


def confirm(s: Session, *, token: str, ip: str | None = None, time_zone: str | None = None) -> Booking:
    """Confirm a hold from the link mailed to the booker, which proves the address: the booking is scheduled, linked
    to the client account with that address (if any), and both sides get the invitation, the booker with a new manage
    link; the hold's link, shown to whoever filled in the form (the address may not be theirs), is not kept among the
    booking's links and stops opening it; commits. 404 for an unknown or used link, 409 when expired."""
    meeting, t = _by_confirm(s, token)
    if t is None:
        raise Conflict("This meeting cannot be confirmed online. Please contact us.")
    _lock_calendar(s, t)  # releases this hold too if it just expired
    meeting, t = _by_confirm(s, token, for_update=True)
    new = new_token()
    meeting.status = MeetingStatus.scheduled
    meeting.hold_expires_at = meeting.confirm_token_hash = None
    meeting.manage_token_hash = _digest(new)
    client = s.exec(select(User).where(User.email == meeting.booker_email, User.role == Role.client)).first()
    if client is not None and meeting.client_id is None:
        meeting.client_id = client.id
    s.add(meeting)
    _flush_or_taken(s)
    return _tell(s, meeting, t, "REQUEST", "meeting.confirm", token=new, time_zone=time_zone, ip=ip)
