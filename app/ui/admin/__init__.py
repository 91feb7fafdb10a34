"""The staff admin panel: one shell (shell.py) around the sections, each a module with its state."""
