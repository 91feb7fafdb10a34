"""In-app booking (public): meeting types, free slots, booking, and the manage link's reschedule and cancel."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field

from app.api.deps import ClientIP, SessionDep
from app.services import booking
from app.services.booking import BookingCreate, BookingTime, SlotsQuery

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


T = TypeVar("T")


class Data(BaseModel, Generic[T]):
    data: T


Token = Annotated[str, Field(max_length=200)]


@router.get("/types")
def types(s: SessionDep) -> Data[list[BookingType]]:
    """The active meeting types a visitor can book."""
    return Data(data=[BookingType(**t) for t in booking.list_types(s)])


@router.get("/slots")
def slots(s: SessionDep, query: Annotated[SlotsQuery, Query()]) -> Data[list[SlotOut]]:
    """Free slots of a type (UTC), `days` business days from `from` (default today), notice and horizon applied."""
    return Data(data=[SlotOut(**x) for x in booking.free_slots(s, data=query)])


def admit(s: SessionDep, ip: ClientIP) -> None:
    """Every attempt counts against the address's limit, a malformed one too: run before the body is read."""
    booking.admit(s, ip=ip)


@router.post("", status_code=201, response_model=Data[Booked], dependencies=[Depends(admit)])
def book(body: BookingCreate, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """Book a free slot; 409 when it is taken or no longer offered. Mails the invitation to both sides."""
    return {"data": booking.book(s, data=body, ip=ip, admitted=True)}


@router.get("/manage/{token}")
def manage(token: Token, s: SessionDep) -> Data[Booking]:
    """The booking a manage link opens; 404 for an unknown or used link."""
    return Data(data=Booking(**booking.get_booking(s, token=token)))


@router.post("/manage/{token}/reschedule")
def reschedule(token: Token, body: BookingTime, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Move the booking to another free slot; the answer carries the new manage link (the old one dies)."""
    return Data(data=Booking(**booking.reschedule(s, token=token, data=body, ip=ip)))


@router.post("/manage/{token}/cancel")
def cancel(token: Token, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Cancel the booking; the slot is free again and the link dies."""
    return Data(data=Booking(**booking.cancel(s, token=token, ip=ip)))
