"""Newsletter (the Newsletter tab of /admin/content, content:read): the subscribers of the public double opt-in,
searched and filtered, with their CSV export; unsubscribing one on request needs content:write."""
