"""/api/protected profile calls and /api/auth/complete-profile: a signed-in user's own account."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import CurrentSession, CurrentUser, SessionDep
from app.models.user import UserPublic
from app.services import profile

router = APIRouter(tags=["account"])


class ProfileIn(BaseModel):
    first_name: str | None = None
    last_name: str | None = None
    phone: str | None = None
    company: str | None = None
    username: str | None = None


class PasswordIn(BaseModel):
    currentPassword: str = ""  # noqa: N815 (the spec's payload names)
    newPassword: str = ""  # noqa: N815
    confirmPassword: str = ""  # noqa: N815


class CompleteProfileIn(BaseModel):
    username: str = ""
    company: str = ""
    phone: str = ""
    password: str | None = None


@router.put("/protected/profile")
def update_profile(body: ProfileIn, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Update the fields sent (first/last name, phone, company, or username and phone from settings)."""
    updated = profile.update_profile(s, user, **body.model_dump(exclude_unset=True))
    return {
        "message": "Your profile has been updated successfully.",
        "user": UserPublic.of(updated).model_dump(mode="json"),
    }


@router.put("/protected/change-password")
def change_password(body: PasswordIn, current: CurrentSession, s: SessionDep) -> dict[str, str]:
    """Change the password (current one checked); every other session of the user ends."""
    user, family = current
    profile.change_password(
        s,
        user,
        current_password=body.currentPassword,
        new_password=body.newPassword,
        confirm_password=body.confirmPassword,
        keep_family=family,
    )
    return {"message": "Password changed successfully!"}


@router.post("/auth/complete-profile")
def complete_profile(body: CompleteProfileIn, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Finish a Google sign-up with username, company, phone and an optional password."""
    done = profile.complete_profile(s, user, **body.model_dump())
    return {"message": "Profile Completed!", "user": UserPublic.of(done).model_dump(mode="json")}
