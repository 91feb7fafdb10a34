"""The public site's sticky header: logo, main navigation, Portal and Get Quote buttons, and the mobile menu.

Its behaviour (hide on scroll down, the mobile panel, the active link) is browser-side, in site_shell.js; this module
only renders the markup with the ids and data attributes that script looks for.
"""

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.ui import routes
from app.ui.components.logo import logo_link
from app.ui.styles import BUTTON_OUTLINE, BUTTON_PRIMARY, BUTTON_SM, CONTAINER, FOCUS_RING

NAV_ITEMS: list[tuple[str, str]] = [
    ("Home", routes.HOME),
    ("About", routes.ABOUT),
    ("Services", routes.SERVICES),
    ("Portfolio", routes.PORTFOLIO),
    ("Contact", routes.CONTACT),
]

HEADER_ID = "site-header"
MENU_ID = "site-menu"
MENU_BUTTON_ID = "site-menu-button"

# aria-current="page" is set by site_shell.js on the link whose prefix matches the path.
_ACTIVE = "aria-[current=page]:bg-blue-50 aria-[current=page]:text-blue-800"
_DESKTOP_LINK = (
    f"block rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 "
    f"hover:text-slate-900 {_ACTIVE} {FOCUS_RING}"
)
_MOBILE_LINK = (
    f"block rounded-md px-3 py-3 text-base font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 "
    f"{_ACTIVE} {FOCUS_RING}"
)


def _nav_link(label: str, href: str, class_name: str) -> rx.Component:
    return rx.el.li(ReactRouterLink.create(label, to=href, data_nav_prefix=href, class_name=class_name))


def _desktop_nav() -> rx.Component:
    return rx.el.nav(
        rx.el.ul(
            *[_nav_link(label, href, _DESKTOP_LINK) for label, href in NAV_ITEMS],
            class_name="flex items-center gap-1",
        ),
        aria_label="Main",
        class_name="hidden md:block",
    )


def _actions(portal: str, icon_size: int, size: str, class_name: str) -> rx.Component:
    """The portal and quote links: in the bar on wide screens, at the foot of the menu on phones."""
    return rx.el.div(
        ReactRouterLink.create(
            rx.icon("circle-user-round", size=icon_size),
            portal,
            to=routes.CLIENT_PORTAL,
            class_name=f"{BUTTON_OUTLINE} {size}",
        ),
        ReactRouterLink.create("Get Quote", to=routes.CONTACT, class_name=f"{BUTTON_PRIMARY} {size}"),
        class_name=class_name,
    )


def _menu_button() -> rx.Component:
    # Both icons are rendered; aria-expanded (toggled by site_shell.js) picks the visible one.
    return rx.el.button(
        rx.icon("menu", size=24, class_name="group-aria-expanded:hidden"),
        rx.icon("x", size=24, class_name="hidden group-aria-expanded:block"),
        id=MENU_BUTTON_ID,
        type="button",
        aria_label="Open menu",
        aria_expanded="false",
        aria_controls=MENU_ID,
        class_name=(
            f"group inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 "
            f"md:hidden {FOCUS_RING}"
        ),
    )


def _mobile_menu() -> rx.Component:
    return rx.el.div(
        rx.el.nav(
            rx.el.ul(
                *[_nav_link(label, href, _MOBILE_LINK) for label, href in NAV_ITEMS],
                class_name="flex flex-col gap-1",
            ),
            aria_label="Main",
        ),
        _actions(
            "Client Portal", 18, "h-11 px-4 text-base", "mt-4 grid grid-cols-2 gap-3 border-t border-slate-200 pt-4"
        ),
        id=MENU_ID,
        hidden=True,
        class_name=(
            "absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-slate-200 "
            "bg-white px-4 pt-3 pb-5 shadow-lg md:hidden"
        ),
    )


def site_header() -> rx.Component:
    """The sticky header; site_shell.js sets [data-hidden] on it while the user scrolls down."""
    return rx.el.header(
        rx.el.div(
            logo_link(compact_on_tablet=True),
            _desktop_nav(),
            rx.el.div(
                _actions("Portal", 16, BUTTON_SM, "hidden items-center gap-2 md:flex"),
                _menu_button(),
                class_name="flex items-center",
            ),
            class_name=f"{CONTAINER} flex h-16 items-center justify-between gap-4",
        ),
        _mobile_menu(),
        id=HEADER_ID,
        class_name=(
            "sticky top-0 z-40 border-b border-slate-200 bg-white shadow-xs transition-transform "
            "duration-300 ease-out data-hidden:-translate-y-full motion-reduce:transition-none"
        ),
    )
