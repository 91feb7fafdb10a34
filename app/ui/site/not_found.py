import reflex as rx


def not_found_page() -> rx.Component:
    return rx.el.main(rx.el.h1("Page Not Found"), rx.el.a("Go Home", href="/"))
