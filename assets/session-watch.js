// Browser side of the inactivity rules (the server enforces the same limits on its own).
// Active only on pages that render #session-watch with data-idle-minutes (signed-in portal and admin pages).
// Besides the idle limit it asks the server every minute (and when the tab is shown again) whether the session still
// lives; when the server has ended it (signed out elsewhere, a password reset, an idle timeout) the page is left at
// once, so no private data stays on screen.
(function () {
  "use strict";
  var WARN_MS = 5 * 60 * 1000; // the "Session Expiring Soon" banner shows in the last five minutes
  var CHECK_MS = 60 * 1000; // checked every minute, as the spec says
  var PING_MS = 60 * 1000; // activity is reported to the server at most once a minute
  var lastActivity = Date.now();
  var lastPing = 0;
  var warned = false;

  function watch() {
    var el = document.getElementById("session-watch");
    var minutes = el ? parseInt(el.getAttribute("data-idle-minutes") || "0", 10) : 0;
    return minutes > 0 ? { el: el, limitMs: minutes * 60 * 1000 } : null;
  }

  function onActivity() {
    lastActivity = Date.now();
    if (warned) {
      warned = false; // re-armed by activity
      var banner = document.getElementById("session-warning");
      if (banner) banner.hidden = true;
    }
    if (watch() && Date.now() - lastPing > PING_MS) {
      lastPing = Date.now();
      fetch("/api/auth/activity", { method: "POST", credentials: "same-origin" }).catch(function () {});
    }
  }

  var leaving = false;

  function leave(target) {
    if (leaving) return;
    leaving = true;
    try { window.sessionStorage.removeItem("token"); } catch (_) { /* storage may be disabled */ }
    // Clear the cookies too, then replace the page (Back does not bring the signed-in page back).
    fetch("/api/auth/logout", { method: "POST", credentials: "same-origin" })
      .catch(function () {})
      .then(function () { window.location.replace(target); });
  }

  function askServer() {
    var w = watch();
    if (!w || leaving) return;
    fetch("/api/auth/session", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status !== 401) return;
        var idle = Date.now() - lastActivity >= w.limitMs - CHECK_MS;
        leave(w.el.getAttribute(idle ? "data-expired-url" : "data-ended-url") || "/admin/login?ended=1");
      })
      .catch(function () { /* offline: the next check asks again */ });
  }

  function check() {
    var w = watch();
    if (!w) return;
    var left = w.limitMs - (Date.now() - lastActivity);
    if (left <= 0) {
      leave(w.el.getAttribute("data-expired-url") || "/admin/login?expired=1");
      return;
    }
    askServer();
    if (left <= WARN_MS && !warned) {
      warned = true;
      var banner = document.getElementById("session-warning");
      if (banner) banner.hidden = false;
    }
  }

  // Signing in or out starts a new identity: drop the tab's Reflex state token, so the next page gets a fresh
  // backend state instead of hydrating the previous user's data (the per-tab token lives in sessionStorage).
  document.addEventListener(
    "submit",
    function (e) {
      var action = (e.target && e.target.getAttribute && e.target.getAttribute("action")) || "";
      if (action.indexOf("/api/auth/form/") === 0) {
        try { window.sessionStorage.removeItem("token"); } catch (_) { /* storage may be disabled */ }
      }
    },
    true
  );

  ["mousedown", "keydown", "scroll", "touchstart", "click"].forEach(function (name) {
    window.addEventListener(name, onActivity, { passive: true, capture: true });
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") check(); // a laptop waking up, a tab shown again
  });
  setInterval(check, CHECK_MS);
})();
