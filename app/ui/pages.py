import reflex as rx

from app.ui.portal.page import client_portal
from app.ui.portal.state import PortalState


@rx.page(route="/", title="Home")
def home() -> rx.Component:
    return rx.el.main(rx.el.h1("Home", class_name="text-3xl font-bold text-blue-700"))


rx.page(route="/client-portal", title="Client Portal", on_load=PortalState.on_load)(client_portal)
