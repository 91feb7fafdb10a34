"""Content Management (/admin/content, content:read): the tabs Organizations, Projects, Website and Newsletter, and a
link to Products & Services, where the product catalogue is edited (ADR 0090; `?tab=products` leads there).

Each tab is its own feature with its own state, views and dialogs (app/ui/admin/organizations, projects,
site_editor, subscribers). This page only switches tabs and loads the one shown: a tab's list is fetched, one page at a
time, when it is opened. ContentState (state.py), the page content (views.py).
"""
