"""Projects tab of Content Management: client projects with progress and milestones (content:read; writes
content:write)."""
