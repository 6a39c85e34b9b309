// The development inbox: the list (newest first), the open message, live through Server-Sent
// Events (/_dev/mail/events says "change"; the page fetches what it shows again).
import { say, words } from "./api.js";
const list = document.getElementById("list");
const detail = document.getElementById("detail");
const toInput = document.getElementById("filter-to");
const actionSelect = document.getElementById("filter-action");
// The labels of the actions, as the server wrote them in the filter (one list for both).
const actions = Object.fromEntries([...actionSelect.options].filter((o) => o.value).map((o) => [o.value, o.textContent]));
let openId = null;
let known = null; // ids seen so far, to announce new mail


async function getJson(url) {
  const res = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function badge(el, state) {
  el.className = `badge ${state || ""}`;
  el.textContent = state ? words(`js.inbox.state.${state}`) : "";
  el.hidden = !state;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString(document.documentElement.lang) : "";
}

async function refreshList() {
  const q = new URLSearchParams();
  if (toInput.value.trim()) q.set("to", toInput.value.trim());
  if (actionSelect.value) q.set("action", actionSelect.value);
  let data;
  try { data = await getJson(`/_dev/mail/messages?${q}`); } catch (e) { return say("form-error", words("js.inbox.loadFailed", { error: e.message })); }
  const fresh = known ? data.messages.filter((m) => !known.has(m.id)) : [];
  known = new Set(data.messages.map((m) => m.id));
  list.replaceChildren(...data.messages.map(renderItem));
  document.getElementById("empty").hidden = data.messages.length > 0;
  document.getElementById("count").textContent = `(${data.messages.length})`;
  if (fresh.length) say("status", fresh.length === 1 ? words("js.inbox.newOne", { to: fresh[0].to, subject: fresh[0].subject }) : words("js.inbox.newMany", { count: fresh.length }));
}

function renderItem(m) {
  const li = document.createElement("li");
  li.dataset.id = String(m.id);
  const b = document.createElement("button");
  b.type = "button";
  if (m.id === openId) b.setAttribute("aria-current", "true");
  const subject = document.createElement("span");
  subject.className = "subject";
  subject.textContent = m.subject || words("js.inbox.noSubject");
  const meta = document.createElement("span");
  meta.className = "meta";
  meta.textContent = `${m.to} · ${actions[m.action]} · ${when(m.receivedAt)} `;
  b.append(subject, meta);
  if (m.tokenState) {
    const s = document.createElement("span");
    badge(s, m.tokenState);
    s.setAttribute("aria-label", words("js.inbox.tokenState", { state: words(`js.inbox.state.${m.tokenState}`) }));
    meta.append(s);
  }
  b.addEventListener("click", () => openMessage(m.id, true));
  li.append(b);
  return li;
}

async function openMessage(id, focus) {
  let m;
  try { m = await getJson(`/_dev/mail/messages/${id}`); } catch { detail.hidden = true; openId = null; return; }
  openId = id;
  for (const b of list.querySelectorAll("button")) b.setAttribute("aria-current", b.parentElement.dataset.id === String(id) ? "true" : "false");
  document.getElementById("detail-title").textContent = m.subject || words("js.inbox.noSubject");
  document.getElementById("d-to").textContent = m.to;
  document.getElementById("d-from").textContent = m.from || "";
  document.getElementById("d-received").textContent = when(m.receivedAt);
  document.getElementById("d-action").textContent = actions[m.action];
  document.getElementById("d-token").textContent = m.token || m.code || words("js.inbox.none");
  badge(document.getElementById("d-state"), m.tokenState);
  document.getElementById("d-expires").textContent = m.expiresAt ? when(m.expiresAt) : "";
  const link = document.getElementById("d-link");
  link.hidden = !m.link;
  if (m.link) link.href = m.link;
  document.getElementById("d-copy").hidden = !(m.token || m.code);
  document.getElementById("d-copy").onclick = () => copy(m.token || m.code);
  document.getElementById("d-text").textContent = m.text;
  const frame = document.getElementById("d-html");
  const src = `/_dev/mail/messages/${id}/html`;
  frame.hidden = !m.hasHtml;
  if (m.hasHtml && frame.getAttribute("src") !== src) frame.setAttribute("src", src);
  detail.hidden = false;
  if (focus) document.getElementById("detail-title").focus();
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    say("status", words("js.inbox.copied"));
  } catch {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("d-token"));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    say("status", words("js.inbox.selected"));
  }
}

document.getElementById("delete-all").addEventListener("click", async () => {
  if (!window.confirm(words("js.inbox.confirmDelete"))) return;
  const res = await fetch("/_dev/mail/delete", { method: "POST", headers: { "authsvc-dev": "1" }, credentials: "same-origin" });
  if (!res.ok) return say("form-error", words("js.inbox.deleteFailed", { status: res.status }));
  const { deleted } = await res.json();
  detail.hidden = true;
  openId = null;
  known = null;
  await refreshList();
  say("status", words("js.inbox.deleted", { count: deleted }));
});

let filterTimer;
toInput.addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(refreshList, 200); });
actionSelect.addEventListener("change", refreshList);
document.getElementById("filters").addEventListener("submit", (e) => { e.preventDefault(); refreshList(); });

async function onChange() {
  await refreshList();
  if (openId !== null) await openMessage(openId, false);
}

// EventSource reconnects by itself (retry: 1000) after a restart of the server.
const feed = new EventSource("/_dev/mail/events");
feed.addEventListener("change", onChange);
refreshList();
