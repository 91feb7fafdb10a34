"""/contact: 'Get In Touch', the contact details cards (with Book a Meeting) and the contact form."""

import reflex as rx

from app.ui import routes
from app.ui.components.blocks import page_hero
from app.ui.layouts.site import site_layout
from app.ui.seo import page_meta
from app.ui.site.sections.contact_form import ContactFormState, contact_form
from app.ui.site.sections.contact_info import contact_info
from app.ui.state.company import AT_BUILD
from app.ui.styles import CONTAINER


@rx.page(
    **page_meta(
        routes.CONTACT,
        f"Contact Us | {AT_BUILD.name}",
        "Request a free quote or ask a question. Call, e-mail or send us your project details: we reply within "
        "24 hours.",
    ),
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
        rx.el.section(
            rx.el.div(
                # The form comes first (on a phone it is what people came for); the cards sit beside it.
                rx.el.div(
                    rx.el.h2(
                        "Send us a message",
                        id="contact-form-heading",
                        class_name="mb-5 text-2xl font-bold tracking-tight text-slate-900",
                    ),
                    contact_form(),
                    class_name="lg:col-span-3",
                ),
                rx.el.div(
                    rx.el.h2(
                        "Other ways to reach us",
                        id="contact-details-heading",
                        class_name="mb-5 text-2xl font-bold tracking-tight text-slate-900",
                    ),
                    contact_info(),
                    class_name="lg:col-span-2",
                ),
                class_name=f"{CONTAINER} grid gap-10 lg:grid-cols-5",
            ),
            aria_labelledby="contact-form-heading",
            class_name="bg-slate-50 py-16 sm:py-20",
        ),
    )
