"""Every page path of the site, in one place: pages, links and redirects use these constants, never literals."""

HOME = "/"
ABOUT = "/about"
SERVICES = "/services"
PORTFOLIO = "/portfolio"
CONTACT = "/contact"
CAREERS = "/careers"
APPLY = "/apply"
PRIVACY = "/privacy"
TERMS = "/terms"
# The spec leaves the Book a Meeting route open; linked from /contact and the footer.
BOOK_MEETING = "/book-meeting"

CLIENT_PORTAL = "/client-portal"
PROFILE = "/profile"
SETTINGS = "/settings"
COMPLETE_PROFILE = "/complete-profile"
SECOND_STEP = "/sign-in/second-step"  # the code (or setting one up) after the password or Google
REGISTER = "/register"
FORGOT_PASSWORD = "/forgot-password"
RESET_PASSWORD = "/reset-password"  # the e-mailed link's page (?token=...)

ADMIN_LOGIN = "/admin/login"
ADMIN_FORGOT_PASSWORD = "/admin/forgot-password"  # the staff sign-in's "Forgot password?" page
ADMIN_DASHBOARD = "/admin/dashboard"
ADMIN_USERS = "/admin/users"
ADMIN_CLIENTS = "/admin/clients"
ADMIN_INQUIRIES = "/admin/inquiries"
ADMIN_CONTENT = "/admin/content"
ADMIN_BILLING = "/admin/billing"
ADMIN_ANALYTICS = "/admin/analytics"
ADMIN_PRODUCTS = "/admin/products"
ADMIN_MEETINGS = "/admin/meetings"
ADMIN_APPLICATIONS = "/admin/applications"
ADMIN_SETTINGS = "/admin/settings"

# Reflex's special route for unknown paths.
NOT_FOUND = "404"
BOOK_MEETING_MANAGE = "/book-meeting/manage"
BOOK_MEETING_CONFIRM = "/book-meeting/confirm"
