"""The one shell of every admin page: sidebar 'Staff Dashboard', header, mobile drawer, guard outcomes, toasts."""

from __future__ import annotations

import reflex as rx

from app.ui import routes
from app.ui.admin.state import SECTIONS, AdminState
from app.ui.admin.widgets import BTN_SECONDARY, spinner
from app.ui.components.conversation import unread_badge
from app.ui.components.native_form import native_form
from app.ui.components.session_watch import session_watch
from app.ui.components.ticker import ticker
from app.ui.components.toast_bridge import toast_bridge

LOGOUT_ACTION = "/api/auth/form/logout"
UNREAD_SECTION = "content"  # the section that holds the projects (Content Management's Projects tab)
UNREAD_SECONDS = 15  # how often an open staff page counts unread messages again (one indexed query)

# A static inline script, installed once per window: Ctrl/Cmd+B clicks whichever sidebar toggle is visible (the
# collapse button on desktop, the menu on mobile). Dropping the tab's state on sign-in/out is site-wide, in
# assets/session-watch.js.
SHELL_JS = """(function(){if(window.__staffShell)return;window.__staffShell=true;
document.addEventListener('keydown',function(e){if(!(e.ctrlKey||e.metaKey)||e.altKey||e.shiftKey)return;
if(e.key!=='b'&&e.key!=='B')return;var b=document.querySelectorAll('[data-sidebar-toggle]');
for(var i=0;i<b.length;i++){if(b[i].offsetParent!==null){e.preventDefault();b[i].click();return;}}});})();"""


def _logout_form(label: str, class_name: str, test_id: str) -> rx.Component:
    """A real form post: the server ends the session and answers with a redirect (a full page load)."""
    return native_form(
        rx.el.input(type="hidden", name="page", value="admin"),
        rx.el.button(rx.icon("log-out", size=16), label, type="submit", class_name=class_name, data_testid=test_id),
        method="post",
        action=LOGOUT_ACTION,
    )


def _nav_item(key: str, label: str, route: str, icon: str, active: str, *, drawer: bool) -> rx.Component:
    is_active = key == active
    base = "group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors"
    tone = "bg-blue-50 text-blue-700" if is_active else "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
    label_el = rx.el.span(label, class_name="truncate")
    if not drawer:
        label_el = rx.cond(AdminState.sidebar_collapsed, rx.fragment(), label_el)
    link = rx.link(
        rx.icon(icon, size=18, class_name="shrink-0"),
        label_el,
        href=route,
        underline="none",
        title=label,
        aria_current="page" if is_active else None,
        class_name=f"{base} {tone}",
        on_click=AdminState.close_nav if drawer else None,
    )
    # The projects' section carries the count of unread messages in the conversations of one's projects (ADR 0102):
    # beside the link, not in it, so the link keeps its name.
    item = rx.el.li(link, _unread(drawer=drawer), class_name="relative") if key == UNREAD_SECTION else rx.el.li(link)
    return rx.cond(AdminState.visible_sections.contains(key), item, rx.fragment())


def _unread(*, drawer: bool) -> rx.Component:
    """The badge: after the label, or on the icon's corner when the sidebar is collapsed to icons."""
    badge = unread_badge(AdminState.nav_unread, "nav-unread")
    beside = "pointer-events-none absolute right-3 top-1/2 -translate-y-1/2"
    if drawer:
        return rx.el.span(badge, class_name=beside)
    corner = "pointer-events-none absolute right-0 top-0"
    return rx.el.span(badge, class_name=rx.cond(AdminState.sidebar_collapsed, corner, beside))


def _nav(active: str, *, drawer: bool) -> rx.Component:
    return rx.el.nav(
        rx.el.ul(
            *[_nav_item(key, label, route, icon, active, drawer=drawer) for key, label, route, icon in SECTIONS],
            class_name="flex flex-col gap-1",
        ),
        aria_label="Admin sections",
        class_name="flex-1 overflow-y-auto px-2 py-3",
    )


def _brand(*, drawer: bool) -> rx.Component:
    mark = rx.el.span(
        rx.icon("shield-check", size=18),
        class_name="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-blue-600 text-white",
    )
    title = rx.el.span("Staff Dashboard", class_name="truncate text-base font-semibold text-slate-900")
    if not drawer:
        title = rx.cond(AdminState.sidebar_collapsed, rx.fragment(), title)
    return rx.el.div(mark, title, class_name="flex h-14 items-center gap-2 border-b border-slate-200 px-3")


def _user_card() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.span(
                AdminState.initials,
                class_name="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-slate-800 text-sm "
                "font-semibold text-white",
            ),
            rx.el.div(
                rx.el.p(AdminState.full_name, class_name="truncate text-sm font-semibold text-slate-900"),
                rx.el.p(AdminState.role_name, class_name="truncate text-xs text-slate-500"),
                rx.cond(
                    AdminState.employee_type_label != "",
                    rx.el.p(AdminState.employee_type_label, class_name="truncate text-xs text-slate-500"),
                    rx.fragment(),
                ),
                class_name="min-w-0",
            ),
            class_name="flex items-center gap-3",
        ),
        class_name="border-t border-slate-200 p-3",
        data_testid="mobile-user-card",
    )


def _desktop_sidebar(active: str) -> rx.Component:
    """16rem wide, 3.5rem when collapsed (icons only); the white column runs the page's full height."""
    return rx.el.div(
        rx.el.aside(
            _brand(drawer=False),
            _nav(active, drawer=False),
            class_name="sticky top-0 flex h-screen flex-col",
        ),
        class_name=rx.cond(
            AdminState.sidebar_collapsed,
            "hidden md:block w-14 shrink-0 border-r border-slate-200 bg-white transition-[width] duration-200",
            "hidden md:block w-64 shrink-0 border-r border-slate-200 bg-white transition-[width] duration-200",
        ),
        data_state=rx.cond(AdminState.sidebar_collapsed, "collapsed", "expanded"),
        data_testid="admin-sidebar",
    )


def _mobile_drawer(active: str) -> rx.Component:
    """The slide-out menu below 768 px: sections, who is signed in, and Sign Out."""
    return rx.el.div(
        rx.el.div(
            on_click=AdminState.close_nav,
            class_name=rx.cond(
                AdminState.nav_open,
                "fixed inset-0 z-40 bg-slate-900/40 transition-opacity md:hidden",
                "pointer-events-none fixed inset-0 z-40 bg-slate-900/40 opacity-0 transition-opacity md:hidden",
            ),
            aria_hidden="true",
        ),
        rx.el.div(
            rx.el.div(
                _brand(drawer=True),
                rx.el.button(
                    rx.icon("x", size=18),
                    on_click=AdminState.close_nav,
                    aria_label="Close menu",
                    class_name="absolute right-2 top-3 inline-flex h-8 w-8 items-center justify-center rounded-md "
                    "text-slate-500 hover:bg-slate-100",
                ),
                class_name="relative",
            ),
            _nav(active, drawer=True),
            _user_card(),
            rx.el.div(
                _logout_form("Sign Out", f"{BTN_SECONDARY} w-full", "mobile-sign-out"),
                class_name="px-3 pb-4",
            ),
            role="dialog",
            aria_label="Menu",
            aria_modal="true",
            class_name=rx.cond(
                AdminState.nav_open,
                "fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl transition-transform "
                "duration-200 md:hidden",
                "invisible fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] -translate-x-full flex-col bg-white "
                "shadow-xl transition-transform duration-200 md:hidden",
            ),
            data_testid="mobile-drawer",
        ),
    )


def _header() -> rx.Component:
    return rx.el.header(
        rx.el.button(
            rx.icon("panel-left", size=18),
            on_click=AdminState.toggle_sidebar,
            aria_label="Toggle sidebar (Ctrl+B)",
            title="Toggle sidebar (Ctrl+B)",
            custom_attrs={"data-sidebar-toggle": "desktop"},
            class_name="hidden h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 "
            "md:inline-flex cursor-pointer",
        ),
        rx.el.button(
            rx.icon("menu", size=20),
            on_click=AdminState.toggle_nav,
            aria_label="Open menu",
            aria_expanded=AdminState.nav_open,
            custom_attrs={"data-sidebar-toggle": "mobile"},
            class_name="inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 "
            "md:hidden cursor-pointer",
        ),
        rx.el.p(
            rx.cond(AdminState.welcome_name != "", rx.el.span("Welcome, ", AdminState.welcome_name), ""),
            class_name="min-w-0 flex-1 truncate text-sm font-medium text-slate-700",
            data_testid="welcome-line",
        ),
        rx.el.div(
            _logout_form("Logout", BTN_SECONDARY, "logout"),
            class_name="hidden md:block",
        ),
        class_name="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white/95 px-3 "
        "backdrop-blur md:px-6",
    )


def restricted_panel(feature: str) -> rx.Component:
    return rx.el.div(
        rx.icon("shield-alert", size=36, class_name="text-amber-500"),
        rx.el.h1("Access Restricted", class_name="text-xl font-semibold text-slate-900"),
        rx.el.p(
            f"You don't have permission to access {feature}. Contact your administrator if you need access.",
            class_name="max-w-md text-sm text-slate-600",
        ),
        role="alert",
        class_name="mx-auto mt-10 flex max-w-lg flex-col items-center gap-3 rounded-xl border border-amber-200 "
        "bg-amber-50/60 p-8 text-center",
        data_testid="access-restricted",
    )


def _leave_outlet() -> rx.Component:
    """Signed out or not staff: off to /client-portal (a compiled event, so no eval; the state raised the toast)."""
    leave = rx.el.span(
        hidden=True, on_mount=[AdminState.acknowledge_leave, rx.redirect(routes.CLIENT_PORTAL, replace=True)]
    )
    return rx.cond(AdminState.leave_reason != "", leave, rx.fragment())


def admin_shell(section: str, feature: str, content: rx.Component) -> rx.Component:
    """Sidebar + header around `content`, which renders only once the guard allowed this section."""
    body = rx.cond(
        AdminState.allowed_section == section,
        content,
        rx.cond(AdminState.restricted_section == section, restricted_panel(feature), spinner()),
    )
    return rx.el.div(
        rx.script(SHELL_JS),
        _desktop_sidebar(section),
        _mobile_drawer(section),
        rx.el.div(
            _header(),
            rx.el.main(
                rx.el.div(body, class_name="mx-auto w-full max-w-7xl"),
                class_name="flex-1 px-4 py-6 md:px-8 md:py-8",
            ),
            class_name="flex min-w-0 flex-1 flex-col",
        ),
        _leave_outlet(),
        ticker(seconds=UNREAD_SECONDS, on_tick=AdminState.refresh_unread),
        toast_bridge(),
        session_watch(),  # staff sessions idle out after 10 minutes: the banner warns 5 minutes before
        class_name="flex min-h-screen bg-slate-50 text-slate-900",
    )
