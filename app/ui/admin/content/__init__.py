"""Content Management (/admin/content, content:read): the tabs Organizations, Projects, Products, Website and
Newsletter.

Each tab is its own feature with its own state, views and dialogs (app/ui/admin/organizations, projects, products,
site_editor, subscribers). This page only switches tabs and loads the one shown: a tab's list is fetched, one page at a
time, when it is opened. ContentState (state.py), the page content (views.py).
"""
