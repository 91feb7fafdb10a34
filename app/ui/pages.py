import reflex as rx

from app.ui.admin.pages import register_admin_pages


@rx.page(route="/", title="Home")
def home() -> rx.Component:
    return rx.el.main(rx.el.h1("Home", class_name="text-3xl font-bold text-blue-700"))


# /admin/dashboard, /admin/users, /admin/clients, /admin/inquiries, /admin/settings (one shell, see app/ui/admin).
register_admin_pages()
