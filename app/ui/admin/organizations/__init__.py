"""Organizations tab of Content Management (content:read; writes content:write)."""
