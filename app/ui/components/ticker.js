// A timer that asks the server for fresh figures: `onTick` every `seconds` while the tab is shown, once more when it
// is shown again, and never after the component is gone (the tab left the page or was closed). Rendered by
// app/ui/components/ticker.py; the server decides what changed (docs/adr/0092).
import { useEffect, useRef } from "react";

export function Ticker({ seconds, onTick }) {
  const tick = useRef(onTick);
  tick.current = onTick;
  useEffect(() => {
    const ms = Math.max(1, Number(seconds) || 15) * 1000;
    let timer = null;
    const fire = () => {
      if (tick.current) tick.current();
    };
    const start = () => {
      if (timer === null) timer = setInterval(fire, ms);
    };
    const stop = () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
    };
    const shown = () => {
      if (document.hidden) {
        stop();
      } else {
        fire();
        start();
      }
    };
    document.addEventListener("visibilitychange", shown);
    if (!document.hidden) start();
    return () => {
      stop();
      document.removeEventListener("visibilitychange", shown);
    };
  }, [seconds]);
  return null;
}
