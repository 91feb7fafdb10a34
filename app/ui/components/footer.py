"""The public site's footer: company blurb and contacts, Services and Company links, newsletter box, legal links."""

import asyncio
import logging

import reflex as rx
from reflex_components_core.react_router import ReactRouterLink

from app.core.db import session_scope
from app.core.errors import DomainError
from app.services.crm import newsletter
from app.services.crm.newsletter import SubscribeCreate
from app.services.platform.schema import parse
from app.ui import routes
from app.ui.components.logo import logo_link
from app.ui.state.company import CompanyState
from app.ui.styles import BUTTON_ACCENT, CONTAINER, FOCUS_RING_ON_DARK

log = logging.getLogger(__name__)
C = CompanyState

COPYRIGHT_YEAR = 2025  # the spec fixes the year shown

SERVICE_LINKS: list[str] = [
    "Web Development",
    "Cloud Solutions",
    "Mobile Development",
    "Digital Transformation",
    "Security Audit",
]
COMPANY_LINKS: list[tuple[str, str]] = [
    ("About Us", routes.ABOUT),
    ("Portfolio", routes.PORTFOLIO),
    ("Careers", routes.CAREERS),
    ("Contact", routes.CONTACT),
    ("Book a Meeting", routes.BOOK_MEETING),
    ("Client Portal", routes.CLIENT_PORTAL),
]
LEGAL_LINKS: list[tuple[str, str]] = [("Privacy Policy", routes.PRIVACY), ("Terms of Service", routes.TERMS)]

# (label, the CompanyState var with its URL, 24x24 SVG path): brand marks are not in Lucide, so they are drawn inline
# (paths from Simple Icons, CC0). A link left empty in Settings hides its icon.
SOCIAL_LINKS: list[tuple[str, str, str]] = [
    (
        "LinkedIn",
        "linkedin_url",
        (
            "M20.447 20.452h-3.554v-5.569c0-1.328-.027-3.037-1.852-3.037-1.853 0-2.136 1.445-2.136 2.939v5.667H9."
            "351V9h3.414v1.561h.046c.477-.9 1.637-1.85 3.37-1.85 3.601 0 4.267 2.37 4.267 5.455v6.286zM5.337 7.43"
            "3a2.062 2.062 0 1 1 0-4.125 2.062 2.062 0 0 1 0 4.125zm1.782 13.019H3.555V9h3.564v11.452zM22.225 0H1"
            ".771C.792 0 0 .774 0 1.729v20.542C0 23.227.792 24 1.771 24h20.451C23.2 24 24 23.227 24 22.271V1.729C"
            "24 .774 23.2 0 22.222 0h.003z"
        ),
    ),
    (
        "Twitter",
        "twitter_url",
        (
            "M23.953 4.57a10 10 0 0 1-2.825.775 4.958 4.958 0 0 0 2.163-2.723c-.951.555-2.005.959-3.127 1.184a4.9"
            "2 4.92 0 0 0-8.384 4.482C7.69 8.095 4.067 6.13 1.64 3.162a4.822 4.822 0 0 0-.666 2.475c0 1.71.87 3.2"
            "13 2.188 4.096a4.904 4.904 0 0 1-2.228-.616v.06a4.923 4.923 0 0 0 3.946 4.827 4.996 4.996 0 0 1-2.21"
            "2.085 4.936 4.936 0 0 0 4.604 3.417 9.867 9.867 0 0 1-6.102 2.105c-.39 0-.779-.023-1.17-.067a13.995 "
            "13.995 0 0 0 7.557 2.209c9.053 0 13.998-7.496 13.998-13.985 0-.21 0-.42-.015-.63A9.935 9.935 0 0 0 2"
            "4 4.59z"
        ),
    ),
    (
        "GitHub",
        "github_url",
        (
            "M12 .297c-6.63 0-12 5.373-12 12 0 5.303 3.438 9.8 8.205 11.385.6.113.82-.258.82-.577 0-.285-.01-1.04"
            "-.015-2.04-3.338.724-4.042-1.61-4.042-1.61C4.422 18.07 3.633 17.7 3.633 17.7c-1.087-.744.084-.729.08"
            "4-.729 1.205.084 1.838 1.236 1.838 1.236 1.07 1.835 2.809 1.305 3.495.998.108-.776.417-1.305.76-1.60"
            "5-2.665-.3-5.466-1.332-5.466-5.93 0-1.31.465-2.38 1.235-3.22-.135-.303-.54-1.523.105-3.176 0 0 1.005"
            "-.322 3.3 1.23.96-.267 1.98-.399 3-.405 1.02.006 2.04.138 3 .405 2.28-1.552 3.285-1.23 3.285-1.23.64"
            "5 1.653.24 2.873.12 3.176.765.84 1.23 1.91 1.23 3.22 0 4.61-2.805 5.625-5.475 5.92.42.36.81 1.096.81"
            " 2.22 0 1.606-.015 2.896-.015 3.286 0 .315.21.69.825.57C20.565 22.092 24 17.592 24 12.297c0-6.627-5."
            "373-12-12-12"
        ),
    ),
]

_LINK = f"rounded-sm text-sm text-slate-300 transition-colors hover:text-white {FOCUS_RING_ON_DARK}"
_HEADING = "text-sm font-semibold tracking-wider text-white uppercase"


def _link_column(title: str, links: list[tuple[str, str]]) -> rx.Component:
    return rx.el.div(
        rx.el.h2(title, class_name=_HEADING),
        rx.el.ul(
            *[rx.el.li(ReactRouterLink.create(label, to=href, class_name=_LINK)) for label, href in links],
            class_name="mt-4 space-y-3",
        ),
    )


def _contact_item(icon: str, content: rx.Component) -> rx.Component:
    return rx.el.li(
        rx.icon(icon, size=16, class_name="mt-0.5 shrink-0 text-amber-300"),
        content,
        class_name="flex items-start gap-3",
    )


def _contacts() -> rx.Component:
    return rx.el.address(
        rx.el.ul(
            _contact_item("mail", rx.el.a(C.email, href=f"mailto:{C.email}", class_name=f"{_LINK} break-all")),
            _contact_item(
                "mail", rx.el.a(C.sales_email, href=f"mailto:{C.sales_email}", class_name=f"{_LINK} break-all")
            ),
            _contact_item("phone", rx.el.a(C.phone, href=C.phone_href, class_name=_LINK)),
            _contact_item("map-pin", rx.el.span(C.address, class_name="text-sm text-slate-300")),
            class_name="space-y-3",
        ),
        class_name="mt-6 not-italic",
    )


def _social_link(label: str, var: str, path: str) -> rx.Component:
    href = getattr(C, var)
    link = rx.el.li(
        rx.el.a(
            rx.el.svg(rx.el.path(d=path), view_box="0 0 24 24", aria_hidden="true", class_name="size-5 fill-current"),
            href=href,
            target="_blank",
            rel="noopener noreferrer",
            aria_label=f"{C.name} on {label} (opens in a new tab)",
            class_name=(
                "inline-flex size-10 items-center justify-center rounded-lg bg-white/5 text-slate-300 "
                f"transition-colors hover:bg-white/15 hover:text-white {FOCUS_RING_ON_DARK}"
            ),
        )
    )
    return rx.cond(href != "", link, rx.fragment())


def _brand() -> rx.Component:
    return rx.el.div(
        logo_link(tone="dark"),
        rx.el.p(
            "Web development, hosting, BI reporting and digital transformation for growing businesses on Florida's "
            "Treasure Coast.",
            class_name="mt-4 max-w-sm text-sm leading-relaxed text-slate-300",
        ),
        _contacts(),
        rx.el.ul(*[_social_link(*s) for s in SOCIAL_LINKS], class_name="mt-6 flex gap-2"),
        class_name="lg:col-span-4",
    )


NEWSLETTER_FAILED = "Something went wrong. Please try again in a moment."


def _subscribe(email: str, ip: str | None) -> str:
    request = parse(SubscribeCreate, {"email": email, "source": "footer"})
    with session_scope() as s:
        return newsletter.subscribe(s, data=request, ip=ip)


class NewsletterState(rx.State):
    """The Stay Updated box: idle, submitting, success (double opt-in mail sent) or error."""

    status: str = ""  # "", "success" or "error"
    message: str = ""
    submitting: bool = False

    @rx.event
    async def subscribe(self, form: dict[str, str]):
        if self.submitting:
            return
        self.submitting = True
        self.status, self.message = "", ""
        yield
        email = form.get("email")
        try:
            message = await asyncio.to_thread(
                _subscribe, email if isinstance(email, str) else "", self.router.session.client_ip or None
            )
        except DomainError as exc:
            self.status, self.message = "error", exc.message or NEWSLETTER_FAILED
        except Exception:
            log.exception("Newsletter subscription failed")
            self.status, self.message = "error", NEWSLETTER_FAILED
        else:
            self.status, self.message = "success", message
        finally:
            self.submitting = False

    @rx.event
    def again(self) -> None:
        self.status, self.message = "", ""


def _newsletter_form() -> rx.Component:
    failed = NewsletterState.status == "error"
    return rx.el.form(
        rx.el.div(
            rx.el.label("Email address", html_for="newsletter-email", class_name="sr-only"),
            rx.el.input(
                id="newsletter-email",
                name="email",
                type="email",
                required=True,
                auto_complete="email",
                placeholder="you@company.com",
                aria_invalid=rx.cond(failed, "true", "false"),
                aria_describedby=rx.cond(failed, "newsletter-message", ""),
                class_name=rx.cond(
                    failed,
                    "h-11 w-full min-w-0 rounded-lg border border-red-400 bg-white/10 px-3 text-sm text-white "
                    "placeholder:text-slate-400 focus:outline-2 focus:outline-offset-0 focus:outline-red-300",
                    "h-11 w-full min-w-0 rounded-lg border border-white/20 bg-white/10 px-3 text-sm text-white "
                    "placeholder:text-slate-400 focus:border-amber-300 focus:outline-2 focus:outline-offset-0 "
                    "focus:outline-amber-300",
                ),
            ),
            rx.el.button(
                rx.cond(NewsletterState.submitting, "Subscribing...", "Subscribe"),
                type="submit",
                disabled=NewsletterState.submitting | ~rx.State.is_hydrated,
                class_name=f"{BUTTON_ACCENT} h-11 px-4 text-sm",
            ),
            class_name="flex flex-col gap-2 sm:flex-row lg:flex-col xl:flex-row",
        ),
        rx.cond(
            failed,
            rx.el.p(
                rx.icon("circle-alert", size=16, class_name="mt-0.5 shrink-0", aria_hidden="true"),
                NewsletterState.message,
                id="newsletter-message",
                class_name="mt-2 flex items-start gap-2 text-sm font-medium text-red-300",
            ),
        ),
        id="newsletter-form",
        on_submit=NewsletterState.subscribe,
        aria_labelledby="newsletter-heading",
        class_name="mt-4",
    )


def _newsletter_success() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            rx.icon("mail-check", size=18, class_name="mt-0.5 shrink-0 text-amber-300", aria_hidden="true"),
            NewsletterState.message,
            class_name="flex items-start gap-2 text-sm font-medium text-white",
        ),
        rx.el.button(
            "Use another address",
            type="button",
            on_click=NewsletterState.again,
            class_name=f"mt-3 rounded-sm text-sm text-slate-300 underline underline-offset-4 hover:text-white "
            f"{FOCUS_RING_ON_DARK}",
        ),
        id="newsletter-success",
        class_name="mt-4 rounded-lg border border-amber-300/30 bg-amber-300/10 p-4",
    )


def _newsletter() -> rx.Component:
    # Double opt-in: the service mails a confirmation link; the same neutral answer whatever the address's state.
    return rx.el.div(
        rx.el.h2("Stay Updated", id="newsletter-heading", class_name=_HEADING),
        rx.el.p(
            "Tips on web, cloud and automation for small businesses, plus company news. No spam.",
            class_name="mt-4 text-sm leading-relaxed text-slate-300",
        ),
        rx.el.div(
            rx.cond(NewsletterState.status == "success", _newsletter_success(), _newsletter_form()),
            role="status",
            aria_live="polite",
        ),
        class_name="self-start rounded-2xl border border-white/10 bg-white/5 p-6 md:col-span-2 lg:col-span-4",
    )


def _bottom_bar() -> rx.Component:
    return rx.el.div(
        rx.el.p(
            f"© {COPYRIGHT_YEAR} ",
            C.name,
            ". All rights reserved.",
            class_name="text-sm text-slate-400",
        ),
        rx.el.nav(
            rx.el.ul(
                *[rx.el.li(ReactRouterLink.create(label, to=href, class_name=_LINK)) for label, href in LEGAL_LINKS],
                class_name="flex gap-6",
            ),
            aria_label="Legal",
        ),
        class_name="flex flex-col-reverse gap-4 border-t border-white/10 py-8 sm:flex-row sm:items-center "
        "sm:justify-between",
    )


def site_footer() -> rx.Component:
    """The footer of every public page."""
    return rx.el.footer(
        rx.el.div(
            rx.el.div(
                _brand(),
                rx.el.div(
                    _link_column("Services", [(label, routes.SERVICES) for label in SERVICE_LINKS]),
                    _link_column("Company", COMPANY_LINKS),
                    class_name="grid grid-cols-2 gap-8 lg:col-span-4 lg:pl-8",
                ),
                _newsletter(),
                class_name="grid gap-12 py-14 md:grid-cols-2 lg:grid-cols-12 lg:gap-8",
            ),
            _bottom_bar(),
            class_name=CONTAINER,
        ),
        class_name="bg-blue-950 text-slate-300",
        on_mount=CompanyState.load,  # the company's details as now stored (Settings), on every public page
    )
