"""Settings > Company: the company's details, for holders of settings:manage."""
