"""Products & Services (/admin/products): the product catalogue, the one place where products and their prices are
created, edited, switched on or off and deleted (products:read to see it, products:write to change it; ADR 0090)."""
