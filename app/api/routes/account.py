"""/api/protected profile calls and /api/auth/complete-profile: a signed-in user's own account."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import CurrentSession, CurrentUser, SessionDep
from app.api.schemas import Done
from app.models.user import UserPublic
from app.services.accounts import profile
from app.services.accounts.profile import CompleteProfile, PasswordChange, ProfileUpdate

router = APIRouter(tags=["account"])


class UserSaved(BaseModel):
    """The answer to a change of the user's own account: what happened and the account as it is now."""

    message: str
    user: UserPublic


@router.put("/protected/profile", response_model=UserSaved)
def update_profile(body: ProfileUpdate, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Update the fields sent (first/last name, phone, company, or username and phone from settings)."""
    updated = profile.update_profile(s, user, data=body)
    return {
        "message": "Your profile has been updated successfully.",
        "user": UserPublic.of(updated).model_dump(mode="json"),
    }


@router.put("/protected/change-password", response_model=Done)
def change_password(body: PasswordChange, current: CurrentSession, s: SessionDep) -> dict[str, str]:
    """Change the password (current one checked); every other session of the user ends."""
    user, family = current
    profile.change_password(s, user, data=body, keep_family=family)
    return {"message": "Password changed successfully!"}


@router.post("/auth/complete-profile", response_model=UserSaved)
def complete_profile(body: CompleteProfile, user: CurrentUser, s: SessionDep) -> dict[str, object]:
    """Finish a Google sign-up with username, company, phone and an optional password."""
    done = profile.complete_profile(s, user, data=body)
    return {"message": "Profile Completed!", "user": UserPublic.of(done).model_dump(mode="json")}
