import type { CaughtMailRow } from "../store/caught-mail.js";

export type CaughtAction = "verify-email" | "reset-password" | "password-changed" | "third-party-account" | "passwordless" | "mfa-recovery-code-used" | "mfa-reset" | "recover-passkey"
  | "change-email" | "email-changed" | "account-deletion" | "login-added" | "account-secured" | "organization-invitation" | "other";
/** Every action, in the order filters list them. */
export const caughtActions: readonly CaughtAction[] = ["verify-email", "reset-password", "password-changed", "third-party-account", "passwordless", "mfa-recovery-code-used", "mfa-reset", "recover-passkey", "change-email", "email-changed", "account-deletion", "login-added", "account-secured", "organization-invitation", "other"];
/** How people read an action (inbox, tail-mail). */
export const caughtActionLabels: Record<CaughtAction, string> = {
  "verify-email": "Verify email",
  "reset-password": "Reset password",
  "password-changed": "Password changed",
  "third-party-account": "Third-party account notice",
  passwordless: "Sign-in code or link",
  "mfa-recovery-code-used": "Recovery code used",
  "mfa-reset": "Second factor removed",
  "recover-passkey": "Recover passkey",
  "change-email": "Confirm new email",
  "email-changed": "Email changed",
  "account-deletion": "Account deletion",
  "login-added": "Sign-in method added",
  "account-secured": "Account secured",
  "organization-invitation": "Organization invitation",
  other: "Other",
};

/** A caught message as `authsvc tail-mail` shows it. */
export interface CaughtMailView {
  id: number;
  receivedAt: string;
  to: string;
  subject: string;
  action: CaughtAction;
  link: string | null;
  token: string | null;
  /** The one-time code of a passwordless sign-in mail (6 digits), when it has one. */
  code: string | null;
  expiresAt: string | null;
}

/**
 * Reads the action, link, token and expiry out of a caught message: from the X-Authsvc-* headers
 * when authsvc sent it, else from the first link carrying a `token` parameter (so mail from other
 * local apps that use the same link shape is understood too).
 */
export function viewCaughtMail(row: CaughtMailRow): CaughtMailView {
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
  const action: CaughtAction = header ? (caughtActions.find((a) => a === header && a !== "other") ?? "other")
    : path.endsWith("/verify-email") ? "verify-email" : path.endsWith("/reset-password") ? "reset-password" : path.endsWith("/verify") ? "passwordless"
    : path.endsWith("/webauthn/recover") ? "recover-passkey" : "other";
  const expires = headers.get("x-authsvc-expires-at");
  return {
    id: Number(row.id),
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    to: row.to_address,
    subject: row.subject ?? "",
    action,
    link,
    token,
    code: action === "passwordless" ? (/code[^\n]*:\s*(\d{6})\b/i.exec(text)?.[1] ?? null) : null,
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
  // A token link (verify, reset), or a passwordless sign-in link (its link code is in the fragment).
  return urls.find((u) => /[?&](token|preAuthSessionId)=/.test(u)) ?? null;
}

function decodeEntities(html: string): string {
  return html.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}
