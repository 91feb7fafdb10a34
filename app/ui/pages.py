import reflex as rx

from app.ui.auth import account, admin_home, complete_profile, login, register  # noqa: F401  (registers their pages)


@rx.page(route="/", title="Home")
def home() -> rx.Component:
    return rx.el.main(rx.el.h1("Home", class_name="text-3xl font-bold text-blue-700"))
