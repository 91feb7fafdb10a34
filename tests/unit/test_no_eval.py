"""Nothing in the app asks the browser to evaluate text as code, which the Content-Security-Policy refuses
(app/api/middleware.py): Reflex runs a script that an event handler *returns* (`rx.toast`, `rx.run_script`, ...) with
`eval`, and `rx.call_script` and any `callback=` are evaluated wherever they are used. Under the policy they would fail
silently (Reflex only logs them); tests/e2e/test_csp.py checks the served pages themselves.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"

# Reflex helpers that build browser code: compiled into a page they are plain JavaScript, returned by a handler they
# travel as text and are evaluated.
BROWSER_CODE = {
    "call_script",
    "call_function",
    "run_script",
    "toast",
    "console_log",
    "window_alert",
    "set_clipboard",
    "scroll_to",
    "clear_selected_files",
    "cancel_upload",
    "toggle_color_mode",
    "set_color_mode",
}
EVALUATED_EVERYWHERE = {"call_script"}  # its code is a string the client evaluates, even from a compiled trigger


def _name(call: ast.Call) -> str:
    """`toast` for rx.toast(...), rx.toast.error(...) and toast(...)."""
    node: ast.expr = call.func
    while isinstance(node, ast.Attribute):
        if node.attr in BROWSER_CODE:
            return node.attr
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def eval_uses(source: str) -> list[str]:
    """What in `source` would make the browser evaluate text: any call_script or callback=, and browser code built
    inside a class's method (an event handler's return value)."""
    found = []
    tree = ast.parse(source)
    in_methods = {
        id(node)
        for cls in ast.walk(tree)
        if isinstance(cls, ast.ClassDef)
        for method in cls.body
        if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(method)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or (name := _name(node)) not in BROWSER_CODE:
            continue
        if name in EVALUATED_EVERYWHERE:
            found.append(f"line {node.lineno}: {name} (evaluated in the browser)")
        elif any(k.arg == "callback" for k in node.keywords):
            found.append(f"line {node.lineno}: {name}(callback=...) (the callback is evaluated)")
        elif id(node) in in_methods:
            found.append(f"line {node.lineno}: {name} in a handler (sent as text, evaluated)")
    return found


def test_the_check_sees_what_eval_would_need() -> None:
    handler = "class S(rx.State):\n    def go(self):\n        return rx.toast.error('no')\n"
    compiled = "def page():\n    return rx.button(on_click=rx.toast('fine'))\n"
    scripted = "def page():\n    return rx.button(on_click=rx.call_script('x()'))\n"
    callback = "def page():\n    return rx.el.span(on_mount=rx.run_script('1', callback=S.set))\n"
    assert len(eval_uses(handler)) == 1 and eval_uses(compiled) == []
    assert len(eval_uses(scripted)) == 1 and len(eval_uses(callback)) == 1


def test_nothing_in_the_app_needs_eval() -> None:
    problems = [
        f"{path.relative_to(APP.parent)} {use}"
        for path in sorted(APP.rglob("*.py"))
        for use in eval_uses(path.read_text())
    ]
    assert problems == []
