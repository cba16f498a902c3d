// The console's only script: JSON POSTs with the CSRF token, and the streamed chat.
// Untrusted text (model and tool output, error messages) only ever goes in through textContent
// or text nodes, never innerHTML.

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

function flash(text) {
  const box = document.querySelector(".flash");
  if (!box) return;
  box.textContent = text;
  box.hidden = !text;
}

async function errorText(response) {
  try {
    const body = await response.json();
    return body?.error?.message ?? `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

function withTenant(path, tenant) {
  return tenant ? `${path}?tenant=${encodeURIComponent(tenant)}` : path;
}

async function post(path, body, extraHeaders = {}) {
  return fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf(), ...extraHeaders },
    body: JSON.stringify(body),
  });
}

function follow(then, body) {
  if (then === "reload") location.reload();
  else if (then) location.assign(then);
  else if (body?.redirect) location.assign(body.redirect);
}

async function onAction(button) {
  const { action, confirm: question, then, tenant, ...fields } = button.dataset;
  if (question && !window.confirm(question)) return;
  button.disabled = true;
  try {
    const response = await post(withTenant(action, tenant), fields);
    if (!response.ok) {
      flash(await errorText(response));
      return;
    }
    follow(then, await response.json());
  } catch (error) {
    flash(String(error));
  } finally {
    button.disabled = false;
  }
}

async function onLogin(form) {
  const error = form.querySelector(".flash");
  const response = await post("/console/api/login", { token: form.elements.token.value });
  if (!response.ok) {
    error.textContent = await errorText(response);
    error.hidden = false;
    return;
  }
  follow(null, await response.json());
}

function bubble(list, role, text) {
  const item = document.createElement("li");
  item.className = `msg ${role}`;
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.textContent = role;
  const body = document.createElement("div");
  body.className = "text";
  body.textContent = text;
  item.append(meta, body);
  list.append(item);
  item.scrollIntoView({ block: "end" });
  return body;
}

// Reads the SSE stream of /console/api/chat (the chat completions format) into ``target``.
async function readStream(response, target) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split("\n")) {
        if (!line.startsWith("data:")) continue;
        const data = line.slice(5).trim();
        if (data === "[DONE]") return;
        const chunk = JSON.parse(data);
        if (chunk.error) throw new Error(chunk.error.message ?? "the turn failed");
        const delta = chunk.choices?.[0]?.delta;
        if (delta?.content) target.append(document.createTextNode(delta.content));
        if (delta?.tool_calls) target.closest("li").classList.add("calling");
      }
    }
  }
}

async function onChat(form) {
  const input = form.elements.message;
  const text = input.value.trim();
  if (!text) return;
  const list = document.querySelector("#log .messages");
  const button = form.querySelector("button");
  input.value = "";
  button.disabled = true;
  bubble(list, "user", text);
  const answer = bubble(list, "assistant", "");
  answer.closest("li").classList.add("streaming");
  try {
    const response = await post(
      withTenant("/console/api/chat", form.dataset.tenant),
      { model: "agentd", stream: true, messages: [{ role: "user", content: text }] },
      { "X-Session-Id": form.dataset.session },
    );
    if (!response.ok) throw new Error(await errorText(response));
    await readStream(response, answer);
    // The stored conversation shows the tool calls and results (folded) of the turn.
    location.reload();
  } catch (error) {
    flash(String(error.message ?? error));
    answer.closest("li").classList.remove("streaming");
  } finally {
    button.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (button) {
    event.preventDefault();
    onAction(button);
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.matches("[data-login]")) {
    event.preventDefault();
    onLogin(form);
  } else if (form.id === "chat-form") {
    event.preventDefault();
    onChat(form);
  }
});

document.addEventListener("change", (event) => {
  if (event.target.matches("select[data-autosubmit]")) event.target.form.submit();
});

document.addEventListener("keydown", (event) => {
  const form = event.target.closest?.("#chat-form");
  if (form && event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});
