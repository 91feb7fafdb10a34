"""In-app booking (public): meeting types, free slots, booking, confirming a hold from the mailed link, and the manage
link's reschedule and cancel."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field

from app.api.deps import ClientIP, SessionDep
from app.services.scheduling import booking
from app.services.scheduling.booking import (
    Booked,
    Booking,
    BookingCreate,
    BookingTime,
    BookingType,
    SlotOut,
    SlotsQuery,
)

router = APIRouter(prefix="/booking", tags=["public"])


T = TypeVar("T")


class Data(BaseModel, Generic[T]):
    data: T


Token = Annotated[str, Field(max_length=200)]


@router.get("/types")
def types(s: SessionDep) -> Data[list[BookingType]]:
    """The active meeting types a visitor can book."""
    return Data(data=booking.list_types(s))


@router.get("/slots")
def slots(s: SessionDep, query: Annotated[SlotsQuery, Query()]) -> Data[list[SlotOut]]:
    """Free slots of a type (UTC), `days` business days from `from` (default today), notice and horizon applied."""
    return Data(data=booking.free_slots(s, data=query))


def admit(s: SessionDep, ip: ClientIP) -> None:
    """Every attempt (booking, reschedule, cancel) counts against the address's limit, a malformed one too: run before
    the body is read."""
    booking.admit(s, ip=ip)


@router.post("", status_code=201, response_model=Data[Booked], dependencies=[Depends(admit)])
def book(body: BookingCreate, s: SessionDep, ip: ClientIP) -> dict[str, Any]:
    """Book a free slot; 409 when it is taken or no longer offered. Signed out, the booking is an unconfirmed hold until
    the booker confirms it from the mailed link (then both sides get the invitation)."""
    return {"data": booking.book(s, data=body, ip=ip, admitted=True)}


@router.get("/manage/{token}")
def manage(token: Token, s: SessionDep) -> Data[Booking]:
    """The booking a manage link opens, as it is now: any link mailed for it opens it, moved, cancelled (with
    `cancelledAt` and `cancelledBy`) or past; 404 only for a token that was never a link."""
    return Data(data=booking.get_booking(s, token=token))


@router.post("/manage/{token}/reschedule", dependencies=[Depends(admit)])
def reschedule(token: Token, body: BookingTime, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Move the booking to another free slot (at most three times a day); the answer carries the new manage link (the
    earlier ones keep opening the booking). 409 once it is cancelled or has started."""
    return Data(data=booking.reschedule(s, token=token, data=body, ip=ip, admitted=True))


@router.post("/manage/{token}/cancel", dependencies=[Depends(admit)])
def cancel(token: Token, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Cancel the booking; the slot is free again, and its links show it cancelled. 409 once it is cancelled or has
    started."""
    return Data(data=booking.cancel(s, token=token, ip=ip, admitted=True))


@router.get("/confirm/{token}")
def confirmation(token: Token, s: SessionDep) -> Data[Booking]:
    """The unconfirmed booking a mailed confirmation link names; 404 for an unknown or used link, 409 when expired."""
    return Data(data=booking.get_confirmation(s, token=token))


@router.post("/confirm/{token}")
def confirm(token: Token, s: SessionDep, ip: ClientIP) -> Data[Booking]:
    """Confirm the booking from the mailed link: both sides get the invitation; the answer carries a new manage link."""
    return Data(data=booking.confirm(s, token=token, ip=ip))
