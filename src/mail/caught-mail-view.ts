import type { CaughtMailRow } from "../store/caught-mail.js";
import type { MailTable } from "./kinds.js";

/** An action (X-Authsvc-Action) as declared with its mail kinds (MailTable.actions), or "other". */
export type CaughtAction = string;

/** A caught message as `authsvc tail-mail` shows it. */
export interface CaughtMailView {
  id: number;
  receivedAt: string;
  to: string;
  subject: string;
  action: CaughtAction;
  link: string | null;
  token: string | null;
  /** The one-time code of a sign-in mail (6 digits), when its action carries one. */
  code: string | null;
  expiresAt: string | null;
}

/**
 * Reads the action, link, token and expiry out of a caught message: from the X-Authsvc-* headers
 * when authsvc sent it, else from the first link carrying a `token` parameter (so mail from other
 * local apps that use the same link shape is understood too).
 */
export function viewCaughtMail(mail: MailTable, row: CaughtMailRow): CaughtMailView {
  const headers = parseHeaders(row.headers);
  const text = row.text_body ?? "";
  const link = findTokenLink(text) ?? findTokenLink(decodeEntities(row.html_body ?? ""));
  let token: string | null = null;
  let path = "";
  if (link) {
    try {
      const u = new URL(link);
      token = u.searchParams.get("token");
      path = u.pathname;
    } catch { /* not a URL after all */ }
  }
  const header = headers.get("x-authsvc-action");
  // authsvc's own mail says what it is; other mail is read from its link.
  const action: CaughtAction = header ? (mail.action(header)?.action ?? "other")
    : (mail.actions.find((a) => a.linkPathEnd !== undefined && path.endsWith(a.linkPathEnd))?.action ?? "other");
  const expires = headers.get("x-authsvc-expires-at");
  return {
    id: Number(row.id),
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    to: row.to_address,
    subject: row.subject ?? "",
    action,
    link,
    token,
    code: mail.action(action)?.code ? (/code[^\n]*:\s*(\d{6})\b/i.exec(text)?.[1] ?? null) : null,
    expiresAt: expires && !Number.isNaN(Date.parse(expires)) ? new Date(expires).toISOString() : null,
  };
}

function parseHeaders(json: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!json) return out;
  try {
    for (const [k, v] of JSON.parse(json) as Array<[string, string]>) if (!out.has(k.toLowerCase())) out.set(k.toLowerCase(), String(v).trim());
  } catch { /* headers of a message we could not parse */ }
  return out;
}

function findTokenLink(text: string): string | null {
  const urls = text.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  // A token link (verify, reset), or a sign-in link whose link code is in the fragment.
  return urls.find((u) => /[?&](token|preAuthSessionId)=/.test(u)) ?? null;
}

function decodeEntities(html: string): string {
  return html.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}
