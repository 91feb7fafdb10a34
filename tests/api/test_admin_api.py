"""Staff management rules over HTTP: who may create, change, reset and delete whom; inquiry triage; the dashboard."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.models.enums import EmployeeType, InvoiceStatus, ProjectStatus, Role
from app.models.inquiry import ContactInquiry
from app.models.system import AuditLog
from app.models.user import User
from app.services.accounts import sessions
from tests import factories as f


def as_user(client: TestClient, session: Session, user: User) -> None:
    client.cookies.set("access_token", sessions.start(session, user).access_token)


def test_list_users_filters_and_paginates_in_sql(client: TestClient, session: Session) -> None:
    admin = f.user(session, "boss", role=Role.admin)
    for i in range(5):
        f.user(session, f"shopper{i}", company="Reef Cafe" if i % 2 else "Dune Bikes")
    f.user(session, "unverified_one", is_verified=False)
    as_user(client, session, admin)
    page = client.get("/api/admin/users", params={"role": "client", "page_size": 2}).json()
    assert page["total"] == 6 and len(page["data"]) == 2
    assert client.get("/api/admin/users", params={"search": "reef"}).json()["total"] == 2
    unverified = client.get("/api/admin/users", params={"verified": "false"}).json()["data"]
    assert [u["username"] for u in unverified] == ["unverified_one"]


def test_create_user_rules(client: TestClient, session: Session) -> None:
    hr = f.user(session, "hr1", role=Role.employee, employee_type=EmployeeType.hr)
    as_user(client, session, hr)
    # Valid usernames throughout: the body is read before the role is judged, so each call fails on its rule alone.
    no_type = client.post(
        "/api/admin/users",
        json={"username": "emp_one", "email": "e1@example.com", "password": "Password-1", "role": "employee"},
    )
    assert (
        no_type.status_code == 422
        and no_type.json()["errors"]["employee_type"] == "Employee type is required for employees"
    )
    admin_try = client.post(
        "/api/admin/users",
        json={"username": "admin_one", "email": "a1@example.com", "password": "Password-1", "role": "admin"},
    )
    assert (
        admin_try.status_code == 403
        and admin_try.json()["message"] == "You don't have permission to create this type of user"
    )
    grant = client.post(
        "/api/admin/users",
        json={"username": "emp_two", "email": "e2@example.com", "password": "Password-1", "role": "employee",
              "employee_type": "developer", "extra_permissions": ["billing:write"]},
    )  # fmt: skip
    assert grant.status_code == 403 and "billing:write" in grant.json()["message"]
    dup = client.post(
        "/api/admin/users",
        json={"username": "HR1", "email": "new@example.com", "password": "Password-1", "role": "client"},
    )
    assert dup.status_code == 409 and dup.json()["message"] == "This username is already taken"


def test_sales_lead_creates_clients_only(client: TestClient, session: Session) -> None:
    sales = f.user(session, "sales1", role=Role.employee, employee_type=EmployeeType.sales_lead)
    as_user(client, session, sales)
    r = client.post(
        "/api/protected/create-client",
        json={"username": "c_new", "email": "c_new@example.com", "password": "Password-1", "role": "admin"},
    )
    assert r.status_code == 201 and r.json()["data"]["role"] == "client"  # the role is forced
    assert client.post("/api/admin/users", json={"username": "x", "role": "client"}).status_code == 403


def test_nobody_deletes_themselves_or_the_last_admin(client: TestClient, session: Session) -> None:
    admin = f.user(session, "only_admin", role=Role.admin)
    as_user(client, session, admin)
    for existing in session.exec(select(User).where(User.role == Role.admin, User.id != admin.id)).all():
        session.delete(existing)
    session.commit()
    me = client.delete(f"/api/admin/users/{admin.id}")
    assert me.status_code == 403 and me.json()["message"] == "You cannot delete your own account"
    demote = client.put(f"/api/admin/users/{admin.id}", json={"role": "client"})
    assert demote.status_code == 403 and demote.json()["message"] == "The last admin cannot be demoted"
    assert session.get(User, admin.id).role == Role.admin  # type: ignore[union-attr]


def test_hr_cannot_touch_admins(client: TestClient, session: Session) -> None:
    admin = f.user(session, "an_admin", role=Role.admin)
    hr = f.user(session, "hr2", role=Role.employee, employee_type=EmployeeType.hr)
    as_user(client, session, hr)
    assert client.put(f"/api/admin/users/{admin.id}", json={"first_name": "X"}).status_code == 403
    assert client.delete(f"/api/admin/users/{admin.id}").status_code == 403
    assert (
        client.put(f"/api/protected/reset-password/{admin.id}", json={"newPassword": "Password-99"}).status_code == 403
    )


def test_clients_with_active_work_or_history_are_kept(client: TestClient, session: Session) -> None:
    admin = f.user(session, "adm", role=Role.admin)
    busy, paid_up, fresh = f.user(session, "busy"), f.user(session, "paid_up"), f.user(session, "fresh")
    f.project(session, busy, status=ProjectStatus.in_progress)
    f.invoice(session, paid_up, status=InvoiceStatus.paid)
    as_user(client, session, admin)
    r = client.delete(f"/api/admin/users/{busy.id}")
    assert r.status_code == 409 and r.json()["message"] == "Cannot delete client with active projects or invoices"
    assert client.delete(f"/api/admin/users/{paid_up.id}").status_code == 409
    assert client.delete(f"/api/admin/users/{fresh.id}").status_code == 200
    assert session.get(User, fresh.id) is None
    assert client.delete(f"/api/admin/users/{fresh.id}").json()["message"] == "User not found"


def test_reset_password_ends_the_targets_sessions(client: TestClient, session: Session) -> None:
    support = f.user(session, "support1", role=Role.employee, employee_type=EmployeeType.customer_support)
    customer = f.user(session, "customer1")
    customer_session = sessions.start(session, customer)
    as_user(client, session, support)
    short = client.put(f"/api/protected/reset-password/{customer.id}", json={"newPassword": "short"})
    assert short.status_code == 422 and short.json()["message"] == "Password must be at least 8 characters"
    ok = client.put(f"/api/protected/reset-password/{customer.id}", json={"newPassword": "Brand-new-pass-1"})
    assert ok.status_code == 200
    client.cookies.clear()
    client.cookies.set("access_token", customer_session.access_token)
    assert client.get("/api/auth/me").status_code == 401
    assert (
        client.post("/api/auth/login", json={"identifier": "customer1", "password": "Brand-new-pass-1"}).status_code
        == 200
    )


def test_inquiry_triage_saves_and_is_audited(client: TestClient, session: Session) -> None:
    dev = f.user(session, "dev_triage", role=Role.employee, employee_type=EmployeeType.developer)
    real = ContactInquiry(name="Lee", email="lee@example.com", company="Lee Dental", message="Need SEO")
    spam = ContactInquiry(name="Bot", email="bot@example.com", message="buy now", is_spam=True)
    session.add_all([real, spam])
    session.commit()
    as_user(client, session, dev)
    listed = client.get("/api/admin/inquiries").json()
    assert [i["name"] for i in listed["data"]] == ["Lee"] and listed["total"] == 1
    assert client.get("/api/admin/inquiries", params={"search": "dental"}).json()["total"] == 1
    assert client.get("/api/admin/inquiries", params={"status": "closed"}).json()["total"] == 0
    r = client.put(f"/api/admin/inquiries/{real.id}", json={"priority": "urgent"})
    assert r.status_code == 200 and r.json()["data"]["priority"] == "urgent"
    assert client.put(f"/api/admin/inquiries/{real.id}", json={"status": "bogus"}).status_code == 422
    assert [i["name"] for i in client.get("/api/admin/inquiries", params={"spam": "true"}).json()["data"]] == ["Bot"]
    rescued = client.put(f"/api/admin/inquiries/{spam.id}", json={"is_spam": False})
    assert rescued.status_code == 200 and client.get("/api/admin/inquiries").json()["total"] == 2
    entry = session.exec(select(AuditLog).where(AuditLog.action == "inquiry.update").order_by(AuditLog.id)).first()
    assert (
        entry is not None
        and entry.actor_id == dev.id
        and entry.details == {"from": {"priority": "medium"}, "to": {"priority": "urgent"}}
    )


def test_dashboard_reports_real_figures(client: TestClient, session: Session) -> None:
    admin = f.user(session, "dash_admin", role=Role.admin)
    f.user(session, "someone")
    as_user(client, session, admin)
    body = client.get("/api/admin/dashboard").json()
    assert body["total_users"] == len(session.exec(select(User)).all())
    assert body["active_sessions"] >= 1
    assert body["system"]["database"]["status"] == "ok"
    dev = f.user(session, "dash_dev", role=Role.employee, employee_type=EmployeeType.developer)
    as_user(client, session, dev)
    limited = client.get("/api/admin/dashboard").json()
    assert "total_users" not in limited and "active_sessions" not in limited


def test_staff_sign_ins_are_audited(client: TestClient, session: Session) -> None:
    f.user(session, "audited", role=Role.employee, employee_type=EmployeeType.hr)
    client.post("/api/auth/login", json={"identifier": "audited", "password": "wrong-password"})
    client.post("/api/auth/login", json={"identifier": "audited", "password": f.PASSWORD})
    actions = [a.action for a in session.exec(select(AuditLog).order_by(AuditLog.id)).all()]
    assert actions == ["auth.login_failed", "auth.login"]


def test_hr_cannot_raise_itself_over_http(client: TestClient, session: Session) -> None:
    hr = f.user(session, "hr_self", role=Role.employee, employee_type=EmployeeType.hr)
    as_user(client, session, hr)
    for change in (
        {"employee_type": "founder"},
        {"role": "admin"},
        {"extra_permissions": ["settings:manage"]},
        {"revoked_permissions": ["meetings:read"]},
    ):
        r = client.put(f"/api/admin/users/{hr.id}", json=change)
        assert r.status_code == 403 and r.json()["message"] == "You cannot change your own role or permissions", change
    session.expire_all()
    me = session.get(User, hr.id)
    assert me is not None and (me.role, me.employee_type, me.extra_permissions, me.revoked_permissions) == (
        Role.employee, EmployeeType.hr, [], [],
    )  # fmt: skip
    assert "settings:manage" not in client.get("/api/auth/me").json()["user"]["effective_permissions"]
    # The edit form sends the whole record back: the same role and type with a new phone number is fine.
    same = client.put(
        f"/api/admin/users/{hr.id}", json={"role": "employee", "employee_type": "hr", "phone": "(772) 555-0101"}
    )
    assert same.status_code == 200 and same.json()["data"]["phone"] == "(772) 555-0101"


def test_only_holders_hand_out_a_type_over_http(client: TestClient, session: Session) -> None:
    hr = f.user(session, "hr_grant", role=Role.employee, employee_type=EmployeeType.hr)
    colleague = f.user(session, "colleague", role=Role.employee, employee_type=EmployeeType.hr)
    new = {"password": "Password-1", "role": "employee"}
    as_user(client, session, hr)
    founder_try = client.post(
        "/api/admin/users",
        json={**new, "username": "founder_two", "email": "founder_two@example.com", "employee_type": "founder"},
    )
    assert founder_try.status_code == 403 and "settings:manage" in founder_try.json()["message"]
    cto_edit = client.put(f"/api/admin/users/{colleague.id}", json={"employee_type": "cto"})
    assert cto_edit.status_code == 403 and "content:write" in cto_edit.json()["message"]
    assert session.exec(select(User).where(User.username == "founder_two")).first() is None
    session.expire_all()
    assert session.get(User, colleague.id).employee_type == EmployeeType.hr  # type: ignore[union-attr]
    same_type = client.post(
        "/api/admin/users", json={**new, "username": "hr_two", "email": "hr_two@example.com", "employee_type": "hr"}
    )
    assert same_type.status_code == 201 and same_type.json()["data"]["employee_type"] == "hr"

    founder = f.user(session, "founder_grant", role=Role.employee, employee_type=EmployeeType.founder)
    as_user(client, session, founder)
    cto = client.post(
        "/api/admin/users", json={**new, "username": "cto_one", "email": "cto_one@example.com", "employee_type": "cto"}
    )
    assert cto.status_code == 201
    assert client.put(f"/api/admin/users/{colleague.id}", json={"employee_type": "founder"}).status_code == 200
    unknown = client.put(f"/api/admin/users/{colleague.id}", json={"extra_permissions": ["root:all"]})
    assert (
        unknown.status_code == 422 and unknown.json()["errors"]["extra_permissions"] == "Unknown permissions: root:all"
    )


def test_the_audit_log_route_reads_through_the_audit_service(client: TestClient, session: Session) -> None:
    admin = f.user(session, "audit_reader", role=Role.admin)
    f.user(session, "audited_twice", role=Role.employee, employee_type=EmployeeType.hr)
    client.post("/api/auth/login", json={"identifier": "audited_twice", "password": "wrong-password"})
    as_user(client, session, admin)
    entries = client.get("/api/admin/audit", params={"limit": 5}).json()["data"]
    assert entries[0]["action"] == "auth.login_failed" and entries[0]["actor"] == "audited_twice"
    assert set(entries[0]) >= {"id", "created_at", "actor_id", "entity_type", "entity_id", "details", "ip_address"}
    assert len(client.get("/api/admin/audit", params={"limit": 10**9}).json()["data"]) <= 500
