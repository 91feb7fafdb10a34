"""In-app booking (public): meeting types, free slots, booking, and the manage link's reschedule and cancel."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Generic, TypeVar

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from app.api.deps import ClientIP, SessionDep
from app.services import booking

router = APIRouter(prefix="/booking", tags=["public"])


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
    manageUrl: str | None = None  # noqa: N815
    canChange: bool | None = None  # noqa: N815


class Booked(BaseModel):
    id: int
    start: str
    end: str
    joinUrl: str | None  # noqa: N815
    manageUrl: str  # noqa: N815


class BookIn(BaseModel):
    type: str = Field(max_length=100)
    start: str = Field(max_length=64)
    name: str | None = Field(default=None, max_length=1000)
    email: str | None = Field(default=None, max_length=1000)
    company: str | None = Field(default=None, max_length=1000)
    notes: str | None = Field(default=None, max_length=10000)
    timeZone: str | None = Field(default=None, max_length=64)  # noqa: N815 (the booker's zone, for the letter)


class RescheduleIn(BaseModel):
    start: str = Field(max_length=64)
    timeZone: str | None = Field(default=None, max_length=64)  # noqa: N815


T = TypeVar("T")


class Data(BaseModel, Generic[T]):
    data: T


Token = Annotated[str, Field(max_length=200)]


@router.get("/types")
def types(s: SessionDep) -> Data[list[BookingType]]:
    """The active meeting types a visitor can book."""
    return Data(data=[BookingType(**t) for t in booking.list_types(s)])


@router.get("/slots")
def slots(
    s: SessionDep,
    type: Annotated[str, Query(max_length=100)],
    from_: Annotated[date | None, Query(alias="from")] = None,
    days: Annotated[int, Query(ge=1, le=booking.MAX_DAYS)] = 7,
) -> Data[list[SlotOut]]:
    """Free slots of a type (UTC), `days` business days from `from` (default today), notice and horizon applied."""
    return Data(data=[SlotOut(**x) for x in booking.free_slots(s, type_slug=type, start=from_, days=days)])


@router.post("", status_code=201)
def book(body: BookIn, s: SessionDep, ip: ClientIP) -> Data[Booked]:
    """Book a free slot; 409 when it is taken or no longer offered. Mails the invitation to both sides."""
    done = booking.book(
        s,
        type_slug=body.type,
        start=body.start,
        name=body.name,
        email=body.email,
        company=body.company,
        notes=body.notes,
        ip=ip,
        time_zone=body.timeZone,
    )
    return Data(data=Booked(**{k: done[k] for k in ("id", "start", "end", "joinUrl", "manageUrl")}))


@router.get("/manage/{token}")
def manage(token: Token, s: SessionDep) -> Data[Booking]:
    """The booking a manage link opens; 404 for an unknown or used link."""
    return Data(data=Booking(**booking.get_booking(s, token=token)))


@router.post("/manage/{token}/reschedule")
def reschedule(token: Token, body: RescheduleIn, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Move the booking to another free slot; the answer carries the new manage link (the old one dies)."""
    return Data(data=Booking(**booking.reschedule(s, token=token, start=body.start, ip=ip, time_zone=body.timeZone)))


@router.post("/manage/{token}/cancel")
def cancel(token: Token, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Cancel the booking; the slot is free again and the link dies."""
    return Data(data=Booking(**booking.cancel(s, token=token, ip=ip)))
