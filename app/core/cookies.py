"""The names of the cookies a session lives in, shared by the REST routes and the Reflex pages."""

ACCESS_COOKIE = "access_token"  # HttpOnly: the short-lived access token
REFRESH_COOKIE = "refresh_token"  # HttpOnly, sent only to the refresh and logout routes
REFRESH_COOKIE_PATH = "/api/auth"
# Readable by the page's scripts and holding nothing secret ("1"): it only says that this browser signed in, so the
# prerendered /client-portal can show the sign-in form at once to everyone else instead of waiting for the websocket
# to check a session (the HttpOnly cookies above are invisible before that). It grants nothing: the server never
# reads it, and a stale one only costs its holder the placeholder they always saw.
SIGNED_IN_HINT = "signed_in"
