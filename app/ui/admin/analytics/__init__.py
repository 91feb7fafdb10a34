"""Analytics (/admin/analytics, analytics:read): the figures of analytics.report for a chosen period (default the last
90 days), with plain CSS bar charts: inquiries per week by status, by service, invoiced vs paid per month, projects by
status, applications per opening, conversion and upcoming meetings. AnalyticsState and the shaping (state.py), the page
content (views.py)."""
