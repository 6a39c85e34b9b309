// The development inbox: the list (newest first), the open message, live through Server-Sent
// Events (/_dev/mail/events says "change"; the page fetches what it shows again).
import { say } from "./api.js";
const list = document.getElementById("list");
const detail = document.getElementById("detail");
const toInput = document.getElementById("filter-to");
const actionSelect = document.getElementById("filter-action");
// The labels of the actions, as the server wrote them in the filter (one list for both).
const actions = Object.fromEntries([...actionSelect.options].filter((o) => o.value).map((o) => [o.value, o.textContent]));
const states = { valid: "valid", used: "used", expired: "expired" };
let openId = null;
let known = null; // ids seen so far, to announce new mail


async function getJson(url) {
  const res = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

function badge(el, state) {
  el.className = `badge ${state || ""}`;
  el.textContent = state ? states[state] : "";
  el.hidden = !state;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

async function refreshList() {
  const q = new URLSearchParams();
  if (toInput.value.trim()) q.set("to", toInput.value.trim());
  if (actionSelect.value) q.set("action", actionSelect.value);
  let data;
  try { data = await getJson(`/_dev/mail/messages?${q}`); } catch (e) { return say("form-error", `Could not load the mail (${e.message}).`); }
  const fresh = known ? data.messages.filter((m) => !known.has(m.id)) : [];
  known = new Set(data.messages.map((m) => m.id));
  list.replaceChildren(...data.messages.map(renderItem));
  document.getElementById("empty").hidden = data.messages.length > 0;
  document.getElementById("count").textContent = `(${data.messages.length})`;
  if (fresh.length) say("status", fresh.length === 1 ? `New mail to ${fresh[0].to}: ${fresh[0].subject}` : `${fresh.length} new messages`);
}

function renderItem(m) {
  const li = document.createElement("li");
  li.dataset.id = String(m.id);
  const b = document.createElement("button");
  b.type = "button";
  if (m.id === openId) b.setAttribute("aria-current", "true");
  const subject = document.createElement("span");
  subject.className = "subject";
  subject.textContent = m.subject || "(no subject)";
  const meta = document.createElement("span");
  meta.className = "meta";
  meta.textContent = `${m.to} · ${actions[m.action]} · ${when(m.receivedAt)} `;
  b.append(subject, meta);
  if (m.tokenState) {
    const s = document.createElement("span");
    badge(s, m.tokenState);
    s.setAttribute("aria-label", `token ${m.tokenState}`);
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
  document.getElementById("detail-title").textContent = m.subject || "(no subject)";
  document.getElementById("d-to").textContent = m.to;
  document.getElementById("d-from").textContent = m.from || "";
  document.getElementById("d-received").textContent = when(m.receivedAt);
  document.getElementById("d-action").textContent = actions[m.action];
  document.getElementById("d-token").textContent = m.token || m.code || "none";
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
    say("status", "Token copied.");
  } catch {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("d-token"));
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    say("status", "Token selected: press Ctrl+C (or ⌘C) to copy it.");
  }
}

document.getElementById("delete-all").addEventListener("click", async () => {
  if (!window.confirm("Delete all caught mail?")) return;
  const res = await fetch("/_dev/mail/delete", { method: "POST", headers: { "authsvc-dev": "1" }, credentials: "same-origin" });
  if (!res.ok) return say("form-error", `Could not delete the mail (HTTP ${res.status}).`);
  const { deleted } = await res.json();
  detail.hidden = true;
  openId = null;
  known = null;
  await refreshList();
  say("status", `Deleted ${deleted} message${deleted === 1 ? "" : "s"}.`);
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
