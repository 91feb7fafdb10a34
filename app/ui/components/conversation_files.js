// Browser side of a conversation's files (inlined into the page bundle by components/conversation.py; no eval, which
// the CSP forbids). The state (Python) shows the chosen files and the outcome; this script only moves what the
// websocket should not carry, the files:
//   input[type=file][data-conversation-files]  adds the chosen files to the list kept for that input (several picks
//                                              add up), and mirrors names and sizes to the hidden form
//                                              #conversation-chosen, whose on_submit is ConversationMixin.files_chosen
//   [data-conversation-remove=<index>]         drops one chosen file and mirrors the list again
//   form[data-conversation-form] submitted     with files chosen: posted as multipart/form-data to
//                                              /api/projects/<id>/messages (the route API clients use) instead of
//                                              the websocket; "sending" and then {status, body} go to the hidden form
//                                              #conversation-sent (ConversationMixin.files_sent). Without files the
//                                              submit is left to Reflex.
// The list lives with its input element: the form is re-created after a message is sent and the dialog's content when
// it opens again, so a new input starts with nothing chosen, as the state does.
function setupConversationFiles() {
  const chosen = new WeakMap();
  let sending = false;

  const picker = () => document.querySelector("input[type=file][data-conversation-files]");
  const listOf = (input) => (input && chosen.get(input)) || [];

  const report = (id, values) => {
    const form = document.getElementById(id);
    if (!(form instanceof HTMLFormElement)) return;
    for (const [name, value] of Object.entries(values)) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = value;
    }
    form.requestSubmit();
  };

  const mirror = (input) =>
    report("conversation-chosen", {
      files: JSON.stringify(listOf(input).map((file) => ({ name: file.name, size: file.size }))),
    });

  const onChange = (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-conversation-files")) return;
    chosen.set(input, [...listOf(input), ...Array.from(input.files || [])]);
    input.value = ""; // the same file can be chosen again after removing it
    mirror(input);
  };

  const onClick = (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-conversation-remove]") : null;
    const input = picker();
    if (!button || !input || sending) return;
    const index = Number(button.getAttribute("data-conversation-remove"));
    chosen.set(input, listOf(input).filter((_, i) => i !== index));
    mirror(input);
  };

  const onSubmit = async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-conversation-form")) return;
    const input = form.querySelector("input[type=file][data-conversation-files]");
    const files = listOf(input);
    if (files.length === 0) return; // text only: Reflex sends it over the websocket
    event.preventDefault();
    event.stopPropagation(); // React (listening below document) never sees this submit
    if (sending) return;
    sending = true;
    const data = new FormData();
    const body = form.elements.namedItem("body");
    data.append("body", body instanceof HTMLTextAreaElement ? body.value : "");
    const internal = form.elements.namedItem("internal");
    if (internal instanceof HTMLInputElement && internal.checked) data.append("internal", "true");
    for (const file of files) data.append("files", file, file.name);
    report("conversation-sent", { status: "sending", body: "" });
    try {
      const response = await fetch(`/api/projects/${encodeURIComponent(form.dataset.projectId || "0")}/messages`, {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (response.status === 201 && input) chosen.delete(input);
      report("conversation-sent", { status: String(response.status), body: await response.text() });
    } catch (error) {
      report("conversation-sent", { status: "0", body: "" }); // network failure: the state says so
    } finally {
      sending = false;
    }
  };

  document.addEventListener("change", onChange, true);
  document.addEventListener("click", onClick, true);
  document.addEventListener("submit", onSubmit, true);
  return () => {
    document.removeEventListener("change", onChange, true);
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("submit", onSubmit, true);
  };
}
