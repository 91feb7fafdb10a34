"""Meetings (/admin/meetings, meetings:read): every client meeting, a page at a time, searched, filtered (upcoming/past,
status, client) and sorted; staff with meetings:write schedule a meeting for a client, edit, cancel with a reason and
mark completed. The section page (page.py) also shows the meeting types (app.ui.admin.meeting_types). Times are in
the business time zone (app/ui/admin/business_time.py)."""
