// Browser side of /apply (inlined into the page bundle by apply.py; no eval, which the CSP forbids).
// ApplyState (Python) validates, asks for confirmation and reports the outcome; this script only moves what the
// websocket should not carry, the files:
//   input[type=file][data-apply-file=<field>]  (outside #apply-form) mirrors the chosen file's name and size into
//                                              its hidden inputs <field>Name and <field>Size for the Python validator
//   [data-apply-send] (Final Submit)           posts #apply-form as multipart/form-data to /api/applications/submit
//                                              (the route API clients use) and hands {status, body} to the hidden
//                                              form #apply-result, whose on_submit is ApplyState.finish
function setupApplyForm() {
  let sending = false;

  const setValue = (form, name, value) => {
    const input = form?.elements.namedItem(name);
    if (input instanceof HTMLInputElement) input.value = value;
  };

  const onChange = (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.dataset.applyFile) return;
    const form = document.getElementById("apply-form");
    const file = input.files && input.files[0];
    setValue(form, input.dataset.applyFile + "Name", file ? file.name : "");
    setValue(form, input.dataset.applyFile + "Size", file ? String(file.size) : "");
  };

  const report = (status, body) => {
    const result = document.getElementById("apply-result");
    if (!(result instanceof HTMLFormElement)) return;
    setValue(result, "status", String(status));
    setValue(result, "body", body);
    result.requestSubmit();
  };

  const onClick = async (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-apply-send]") : null;
    const form = document.getElementById("apply-form");
    if (!target || sending || !(form instanceof HTMLFormElement)) return;
    sending = true;
    const data = new FormData();
    for (const name of ["firstName", "lastName", "phone", "email", "linkedinProfile", "jobId"]) {
      const input = form.elements.namedItem(name);
      data.append(name, input instanceof HTMLInputElement ? input.value : "");
    }
    document.querySelectorAll("input[type=file][data-apply-file]").forEach((input) => {
      const file = input.files && input.files[0];
      if (file) data.append(input.dataset.applyFile, file, file.name);
    });
    try {
      const response = await fetch("/api/applications/submit", {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      report(response.status, await response.text());
    } catch (error) {
      report(0, ""); // network failure: ApplyState shows 'Submission Error'
    } finally {
      sending = false;
    }
  };

  document.addEventListener("change", onChange, true);
  document.addEventListener("click", onClick, true);
  return () => {
    document.removeEventListener("change", onChange, true);
    document.removeEventListener("click", onClick, true);
  };
}
