"""Meeting types (a panel of /admin/meetings): the types the booking view offers when no scheduling service is
configured; staff with meetings:write create, edit, activate and deactivate them."""
