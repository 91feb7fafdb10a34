// Browser-side behaviour of the public site's header and footer (inlined into the page bundle by site_shell.py).
// Everything here is DOM-only: no Reflex event and no server round-trip per scroll or tap, and no eval (the CSP
// forbids it). The markup it drives is rendered by header.py, logo.py and not_found.py.
//   #site-header           gets [data-hidden] while scrolled down (CSS slides it out of view)
//   #site-menu-button      toggles the mobile panel #site-menu (aria-expanded mirrors it)
//   [data-nav-prefix]      gets aria-current="page" when the path is that prefix ("/" only when exact)
//   [data-home-link]       on "/" scrolls smoothly to the top instead of navigating
//   [data-history-back]    goes back in history (home when there is no history)
//   [data-scroll-top-on-open] on a page: opening it scrolls smoothly to the top (spec: /services and /portfolio)
function setupSiteShell(pathname) {
  const SHOW_WITHIN_PX = 10; // spec: the header always shows within 10 px of the top
  const header = document.getElementById("site-header");
  const menu = document.getElementById("site-menu");
  const menuButton = document.getElementById("site-menu-button");
  const desktop = window.matchMedia("(min-width: 768px)");
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  document.querySelectorAll("[data-nav-prefix]").forEach((link) => {
    const prefix = link.getAttribute("data-nav-prefix");
    const active = prefix === "/" ? pathname === "/" : pathname === prefix || pathname.startsWith(prefix + "/");
    if (active) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  });

  const menuOpen = () => menuButton?.getAttribute("aria-expanded") === "true";
  const setMenuOpen = (open) => {
    if (!menu || !menuButton) return;
    menu.hidden = !open;
    menuButton.setAttribute("aria-expanded", String(open));
    menuButton.setAttribute("aria-label", open ? "Close menu" : "Open menu");
  };
  const setHeaderHidden = (hidden) => header?.toggleAttribute("data-hidden", hidden);

  let lastY = Math.max(window.scrollY, 0);
  let frame = 0;
  const onScroll = () => {
    if (frame) return;
    frame = window.requestAnimationFrame(() => {
      frame = 0;
      const y = Math.max(window.scrollY, 0);
      if (y <= SHOW_WITHIN_PX || y < lastY) {
        setHeaderHidden(false);
      } else if (y > lastY && !menuOpen() && !header?.querySelector(":focus-visible")) {
        // Kept visible while the menu is open or a keyboard user is inside it.
        setHeaderHidden(true);
      }
      lastY = y;
    });
  };

  // Capture phase on the document runs before React's handlers, so preventDefault() stops the router link too.
  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const plainClick = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

    if (plainClick && target.closest("[data-home-link]") && window.location.pathname === "/") {
      event.preventDefault();
      setMenuOpen(false);
      window.scrollTo({ top: 0, behavior: reducedMotion.matches ? "auto" : "smooth" });
      return;
    }
    if (plainClick && target.closest("[data-history-back]")) {
      event.preventDefault();
      if (window.history.length > 1) window.history.back();
      else window.location.assign("/");
      return;
    }
    if (menuButton?.contains(target)) {
      setMenuOpen(!menuOpen());
      return;
    }
    // A tap outside the panel, or a choice inside it, closes the menu.
    if (menuOpen() && (!menu.contains(target) || target.closest("a, button"))) setMenuOpen(false);
  };

  const onKeyDown = (event) => {
    if (event.key === "Escape" && menuOpen()) {
      setMenuOpen(false);
      menuButton.focus();
    }
  };
  const onBreakpoint = () => {
    if (desktop.matches) setMenuOpen(false);
  };

  setMenuOpen(false);
  setHeaderHidden(false);
  if (document.querySelector("[data-scroll-top-on-open]") && window.scrollY > 0 && !window.location.hash) {
    window.scrollTo({ top: 0, behavior: reducedMotion.matches ? "auto" : "smooth" });
  }
  window.addEventListener("scroll", onScroll, { passive: true });
  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKeyDown);
  desktop.addEventListener("change", onBreakpoint);
  return () => {
    if (frame) window.cancelAnimationFrame(frame);
    window.removeEventListener("scroll", onScroll);
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("keydown", onKeyDown);
    desktop.removeEventListener("change", onBreakpoint);
  };
}
