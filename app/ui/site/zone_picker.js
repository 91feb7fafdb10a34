// The booking page's time-zone picker, used as a list box is (app/ui/site/booking_views.py, zone_picker): the arrow
// keys move between the search and the zones, Escape on a zone closes the list and gives the focus back to its
// button, and a press anywhere outside the picker closes it. The list's state is the server's: closing is a click on
// the picker's own button, which the page's state handles as it handles the visitor's.
function setupZonePicker() {
  if (window.__zonePickerWired) return;
  window.__zonePickerWired = true;
  const picker = () => document.getElementById("booking-zone-picker");
  const isOpen = () => document.getElementById("booking-zone-panel") !== null;
  const close = () => {
    const button = document.getElementById("booking-zone");
    if (isOpen() && button) {
      button.click();
      button.focus();
    }
  };
  document.addEventListener("keydown", (e) => {
    const root = picker();
    if (!root || !isOpen() || !root.contains(e.target)) return;
    const items = [
      document.getElementById("booking-zone-search"),
      ...root.querySelectorAll("#booking-zone-panel [data-zone]"),
    ].filter(Boolean);
    const at = items.indexOf(document.activeElement);
    if (at < 0) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = items[Math.min(items.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)))];
      next.focus();
      next.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Escape" && at > 0) {
      e.preventDefault(); // the search field's own Escape goes to the server (zone_keys)
      close();
    }
  });
  document.addEventListener("pointerdown", (e) => {
    const root = picker();
    if (root && isOpen() && !root.contains(e.target)) close();
  });
}
