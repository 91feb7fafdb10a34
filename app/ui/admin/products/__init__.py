"""Products: the Products tab of Content Management (the products themselves, products:write) and Products & Services
(/admin/products, products:read: the catalogue with its prices)."""
