"""Client projects as the portal shows them, and the client's own cancellation."""

from __future__ import annotations

from sqlmodel import Session, col, select

from app.core.errors import Forbidden, Invalid
from app.models.enums import ProjectStatus
from app.models.project import Project, ProjectMilestone
from app.models.user import User
from app.services import access, audit

FINAL_STATUSES = {ProjectStatus.completed, ProjectStatus.cancelled}


def _money(value: object) -> str | None:
    return f"{value:.2f}" if value is not None else None


def project_dto(p: Project, milestones: list[ProjectMilestone]) -> dict[str, object]:
    return {
        "id": p.id,
        "name": p.name,
        "description": p.description,
        "status": str(p.status),
        "project_type": str(p.project_type),
        "client_id": str(p.client_id),
        "organization_id": p.organization_id,
        "budget": _money(p.budget),
        "progress_percentage": p.progress_percentage,
        # The portal's "deadline" falls back to the planned end date.
        "deadline": (p.deadline or p.end_date).isoformat() if (p.deadline or p.end_date) else None,
        "start_date": p.start_date.isoformat() if p.start_date else None,
        "end_date": p.end_date.isoformat() if p.end_date else None,
        "estimated_hours": p.estimated_hours,
        "actual_hours": p.actual_hours,
        "created_at": p.created_at.isoformat(),
        "milestones": [
            {
                "id": m.id,
                "title": m.title,
                "description": m.description,
                "due_date": m.due_date.isoformat() if m.due_date else None,
                "status": str(m.status),
                "order_index": m.order_index,
            }
            for m in milestones
        ],
    }


def list_projects(s: Session, *, actor: User) -> list[dict[str, object]]:
    """The actor's own projects (clients) or all of them (staff who read content), newest first, with milestones."""
    query = select(Project).order_by(col(Project.created_at).desc(), col(Project.id).desc())
    if not access.sees_all(actor, "project"):
        query = query.where(Project.client_id == actor.id)
    projects = s.exec(query).all()
    ids = [p.id for p in projects]
    milestones: dict[int, list[ProjectMilestone]] = {i: [] for i in ids if i is not None}
    if ids:
        rows = s.exec(
            select(ProjectMilestone)
            .where(col(ProjectMilestone.project_id).in_(ids))
            .order_by(col(ProjectMilestone.order_index), col(ProjectMilestone.id))
        ).all()
        for m in rows:
            milestones[m.project_id].append(m)
    return [project_dto(p, milestones.get(p.id or 0, [])) for p in projects]


def cancel_project(s: Session, *, actor: User, project_id: int) -> dict[str, object]:
    """A client cancels their own project; completed and already cancelled projects cannot be cancelled."""
    project = access.get_visible(s, Project, project_id, actor, "project", label="Project")
    if project.client_id != actor.id and not access.staff_can(actor, "content:write"):
        raise Forbidden("You don't have permission to cancel this project")
    if project.status in FINAL_STATUSES:
        raise Invalid(f"This project is already {project.status.replace('_', ' ')} and cannot be cancelled.")
    project.status = ProjectStatus.cancelled
    s.add(project)
    audit.record(s, actor=actor, action="project.cancel", entity=project)
    s.commit()
    milestones = s.exec(select(ProjectMilestone).where(ProjectMilestone.project_id == project.id)).all()
    return project_dto(project, sorted(milestones, key=lambda m: (m.order_index, m.id or 0)))
