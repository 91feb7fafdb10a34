import reflex as rx


@rx.page(route="/", title="Home")
def home() -> rx.Component:
    return rx.el.main(rx.el.h1("Home", class_name="text-3xl font-bold text-blue-700"))
