"""Shows the toasts handlers store in `NoticeState.notice` with Sonner (Reflex's toaster), from compiled code: the one
notice system of the site, the account pages, the portal and the staff panel (ADR 0083).

A new notice id makes the effect call the toaster once; the last id shown is kept in sessionStorage, so neither a
client-side navigation (a new page mounts a new bridge) nor a reload (the backend state comes back) repeats a toast.
Each goes away after NOTICE_MS (the spec's 5 s banner time) or when dismissed.
"""

import reflex as rx
from reflex_base.vars import VarData

from app.ui.components.behaviour import Behaviour
from app.ui.state.notice import NoticeState

NOTICE_MS = 5000

_SCRIPT = f"""
function showSiteNotice(notice) {{
  if (!notice || !notice.id) return;
  const SEEN_KEY = "site-notice-seen";
  try {{
    if (window.sessionStorage.getItem(SEEN_KEY) === notice.id) return;
    window.sessionStorage.setItem(SEEN_KEY, notice.id);
  }} catch (e) {{
    // Storage may be unavailable (private mode); showing the toast matters more.
  }}
  const toaster = refs["__toast"];
  if (!toaster) return;
  const show = typeof toaster[notice.level] === "function" ? toaster[notice.level] : toaster;
  show(notice.title, {{ id: notice.id, description: notice.description || undefined, duration: {NOTICE_MS} }});
}}
"""


class ToastBridge(Behaviour):
    """Renders nothing; calls ``showSiteNotice`` whenever the notice id changes."""

    script = _SCRIPT

    def add_imports(self) -> dict[str, list[str]]:
        return {"$/utils/state": ["refs"]}

    def add_hooks(self) -> list[str | rx.Var]:
        notice = NoticeState.notice
        code = f"useEffect(() => showSiteNotice({notice!s}), [{notice!s}?.id]);"
        return [rx.Var(_js_expr=code, _var_data=VarData.merge(notice._get_all_var_data()))]


toast_bridge = ToastBridge.create
