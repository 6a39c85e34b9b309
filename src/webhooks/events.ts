import type { NewEvent } from "../store/events.js";

/**
 * The one table that says which internal events (src/store/events.ts insertEvent types) become
 * webhooks, and under which public name. A room that adds an event adds one line here (and one row
 * to the table in docs/webhooks.md); an internal event not listed here never leaves the server.
 * `data` adds fields the public payload always has (on top of the event's own data and userId).
 */
export const webhookEvents: Readonly<Record<string, { type: string; data?: Record<string, unknown> }>> = {
  "user.signed_up": { type: "user.created" },
  "user.email_verified": { type: "user.email_verified" },
  "user.email_unverified": { type: "user.email_unverified" },
  "user.email_changed": { type: "user.email_changed" },
  "session.created": { type: "user.signed_in" },
  "user.password_changed": { type: "user.password_changed" },
  "password_reset.completed": { type: "user.password_reset" },
  "session.revoked": { type: "session.revoked" },
  "sessions.revoked": { type: "session.revoked" },
  "session.token_theft_detected": { type: "session.revoked", data: { reason: "token_theft" } },
  "user.deleted": { type: "user.deleted" },
  "user.linked": { type: "user.linked" },
  "user.unlinked": { type: "user.unlinked" },
  // The second factor (src/methods/totp/): turned on or off, reset by an operator, recovery codes.
  "mfa.totp_enabled": { type: "user.second_factor_changed", data: { change: "added", factor: "totp" } },
  "mfa.totp_disabled": { type: "user.second_factor_changed", data: { change: "removed", factor: "totp" } },
  "mfa.reset": { type: "user.second_factor_changed", data: { change: "reset" } },
  "mfa.recovery_code_used": { type: "user.second_factor_changed", data: { change: "recovery_code_used" } },
  "mfa.recovery_codes_regenerated": { type: "user.second_factor_changed", data: { change: "recovery_codes_regenerated" } },
  // Passkeys (src/methods/webauthn/).
  "webauthn.credential_added": { type: "user.passkey_added" },
  "webauthn.credential_removed": { type: "user.passkey_removed" },
  "webauthn.account_recovered": { type: "user.account_recovered", data: { method: "webauthn" } },
  // Roles, metadata and the self-service account (src/roles/, src/metadata/, src/account/).
  "user.roles_changed": { type: "user.roles_changed" },
  "user.metadata_changed": { type: "user.metadata_changed" },
  "user.deletion_scheduled": { type: "user.deletion_scheduled" },
  "user.deletion_cancelled": { type: "user.deletion_cancelled" },
  // Organizations (src/organizations/): the organization, its members and its invitations.
  "organization.created": { type: "organization.created" },
  "organization.updated": { type: "organization.updated" },
  "organization.deleted": { type: "organization.deleted" },
  "organization.member_added": { type: "organization.member_added" },
  "organization.member_role_changed": { type: "organization.member_role_changed" },
  "organization.member_removed": { type: "organization.member_removed" },
  "organization.member_left": { type: "organization.member_removed", data: { reason: "left" } },
  "organization.invitation_created": { type: "organization.invitation_created" },
  "organization.invitation_resent": { type: "organization.invitation_created", data: { resent: true } },
  "organization.invitation_revoked": { type: "organization.invitation_revoked" },
  "organization.invitation_accepted": { type: "organization.invitation_accepted" },
  "organization.domain_added": { type: "organization.domain_added" },
  "organization.domain_removed": { type: "organization.domain_removed" },
  // The OAuth provider (src/oauth-provider/): a person allowed an app (consent), or the grant was revoked.
  "oauth.grant_given": { type: "oauth.grant_created" },
  "oauth.grant_revoked": { type: "oauth.grant_revoked" },
  "rate_limit.locked": { type: "limits.locked" },
  "webhook.endpoint_disabled": { type: "webhook.endpoint_disabled" },
};

/** Every public event type an endpoint may subscribe to, sorted. */
export const webhookEventTypes: readonly string[] = [...new Set(Object.values(webhookEvents).map((e) => e.type))].sort();

/** A delivery's body as the Standard Webhooks specification shapes it: type, timestamp, data. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The public payload of an internal event, or undefined when that event is not a webhook. */
export function toWebhookPayload(e: NewEvent): WebhookPayload | undefined {
  const mapped = webhookEvents[e.type];
  if (!mapped) return undefined;
  const own = e.data && typeof e.data === "object" && !Array.isArray(e.data) ? (e.data as Record<string, unknown>) : {};
  return { type: mapped.type, timestamp: new Date(e.at).toISOString(), data: { userId: e.userId, ...own, ...mapped.data } };
}

/** Parses an endpoint's event list ("*" or known public types); throws a message naming the unknown one. */
export function normaliseEventList(events: unknown): string[] | "*" {
  if (events === undefined || events === "*" || (Array.isArray(events) && events.length === 1 && events[0] === "*")) return "*";
  const list = typeof events === "string" ? events.split(",").map((s) => s.trim()).filter(Boolean) : events;
  if (!Array.isArray(list) || list.length === 0) throw new Error(`events must be "*" or a list of: ${webhookEventTypes.join(", ")}`);
  for (const t of list) {
    if (typeof t !== "string" || !webhookEventTypes.includes(t)) throw new Error(`unknown event type ${JSON.stringify(t)}; known: ${webhookEventTypes.join(", ")}`);
  }
  return [...new Set(list as string[])].sort();
}
