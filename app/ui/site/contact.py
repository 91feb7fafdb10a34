"""/contact: 'Get In Touch', the contact details cards (with Book a Meeting) and the contact form."""

import reflex as rx

from app.ui import routes
from app.ui.components.blocks import band, page_hero
from app.ui.layouts.site import site_layout
from app.ui.seo import public_page
from app.ui.site.sections.contact_form import ContactFormState, contact_form
from app.ui.site.sections.contact_info import contact_info
from app.ui.state.company import AT_BUILD


def _column(title: str, heading_id: str, content: rx.Component, span: str) -> rx.Component:
    return rx.el.div(
        rx.el.h2(title, id=heading_id, class_name="mb-5 text-2xl font-bold tracking-tight text-slate-900"),
        content,
        class_name=span,
    )


@public_page(
    routes.CONTACT,
    f"Contact Us | {AT_BUILD.name}",
    "Request a free quote or ask a question. Call, e-mail or send us your project details: we reply within 24 hours.",
    on_load=ContactFormState.load_contact_page,
)
def contact_page() -> rx.Component:
    return site_layout(
        page_hero(
            "Contact",
            "Get In Touch",
            "Tell us about your project or ask us anything. We'll get back to you within 24 hours with next steps "
            "and, if you like, a free quote.",
        ),
        band(
            # The form comes first (on a phone it is what people came for); the cards sit beside it.
            _column("Send us a message", "contact-form-heading", contact_form(), "lg:col-span-3"),
            _column("Other ways to reach us", "contact-details-heading", contact_info(), "lg:col-span-2"),
            labelled_by="contact-form-heading",
            layout="grid gap-10 lg:grid-cols-5",
            class_name="bg-slate-50 py-16 sm:py-20",
        ),
    )
