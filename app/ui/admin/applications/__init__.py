"""Applications (/admin/applications, applications:read): job applications per opening; the hiring workflow and
notes need applications:write."""
