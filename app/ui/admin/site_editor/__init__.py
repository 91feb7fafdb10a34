"""The Website tab of Content Management: the public site's services, portfolio, testimonials, team and job openings.

The forms are generated from app.services.site.site_admin.KINDS at compile time, so each field is validated by the same
description the server uses. Reading needs content:read; writing content:write (buttons hidden without it, and the
handlers and the service refuse anyway). SiteEditorState (state.py), the markup (views.py).
"""
