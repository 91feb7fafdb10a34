// Passkeys (ADR 0104): a button with data-passkey="add", "second-step" or "sign-in" runs a WebAuthn ceremony with
// the REST routes (options, then the authenticator's answer). The ceremony's challenge lives in an HttpOnly cookie the
// server set with the options; the page only carries JSON between the server and the browser's authenticator.
// "add" then clicks the element named by data-passkey-done (the settings card reloads its list); a sign-in goes where
// the server says. What happened is written into the element named by data-passkey-status (a live region).
function setupPasskeys() {
  if (window.__passkeysWired) return;
  window.__passkeysWired = true;
  const say = (button, text) => {
    const out = document.getElementById(button.dataset.passkeyStatus || "");
    if (out) out.textContent = text;
  };
  const post = async (url, body) => {
    const init = { method: "POST", credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(url, init);
    let data = {};
    try {
      data = await answer.json();
    } catch (_) {
      data = {};
    }
    if (!answer.ok) throw new Error(data.message || "The passkey could not be checked. Please try again.");
    return data;
  };
  // Browsers refuse a passkey for another host than the one the page is on (e.g. 127.0.0.1 for "localhost").
  const sameHost = (rpId) => !rpId || rpId === window.location.hostname;
  const elsewhere = (rpId) =>
    `Passkeys work on this site's own address only. Open the site at ${window.location.protocol}//${rpId}` +
    `${window.location.port ? ":" + window.location.port : ""} to use one.`;
  document.addEventListener("click", async (e) => {
    const button = e.target.closest("[data-passkey]");
    if (!button || button.disabled) return;
    e.preventDefault();
    if (!window.PublicKeyCredential || !PublicKeyCredential.parseCreationOptionsFromJSON) {
      say(button, "This browser cannot use passkeys. Please use a recent Chrome, Edge, Safari or Firefox.");
      return;
    }
    const kind = button.dataset.passkey;
    button.disabled = true;
    say(button, "Waiting for your passkey...");
    try {
      if (kind === "add") {
        const options = await post("/api/protected/passkeys/options");
        if (!sameHost(options.rp && options.rp.id)) throw new Error(elsewhere(options.rp.id));
        const made = await navigator.credentials.create({
          publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
        });
        await post("/api/protected/passkeys", { credential: made.toJSON(), name: "" });
        say(button, "Passkey added.");
        const done = document.getElementById(button.dataset.passkeyDone || "");
        if (done) done.click();
      } else {
        const base = kind === "sign-in" ? "/api/auth/passkey" : "/api/auth/second-factor/passkey";
        const options = await post(base + "/options");
        if (!sameHost(options.rpId)) throw new Error(elsewhere(options.rpId));
        const got = await navigator.credentials.get({
          publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
        });
        const trust = document.querySelector("input[name=trust]");
        const done = await post(base, { credential: got.toJSON(), trust: !!(trust && trust.checked) });
        say(button, "Signed in.");
        window.location.assign(done.next);
        return;
      }
    } catch (err) {
      const cancelled = err && (err.name === "NotAllowedError" || err.name === "AbortError");
      say(button, cancelled ? "The passkey request was cancelled or timed out." : (err && err.message) || String(err));
    }
    button.disabled = false;
  });
}
