import type { PublicEvents } from "../kernel/room.js";
import type { NewEvent } from "../store/events.js";

/**
 * Which internal events (src/store/events.ts insertEvent types) become webhooks, and under which
 * public name. Each room declares its own (Room.events); these are the kernel's, which no room
 * owns. An internal event no table lists never leaves the server; a room
 * that adds one also adds a row to the table in docs/webhooks.md. `data` adds fields the public
 * payload always has (on top of the event's own data and userId).
 */
export const kernelEvents: PublicEvents = {
  "user.signed_up": { type: "user.created" },
  "user.email_verified": { type: "user.email_verified" },
  "user.email_unverified": { type: "user.email_unverified" },
  "user.email_changed": { type: "user.email_changed" },
  "session.created": { type: "user.signed_in" },
  "user.password_changed": { type: "user.password_changed" },
  "session.revoked": { type: "session.revoked" },
  "sessions.revoked": { type: "session.revoked" },
  "session.token_theft_detected": { type: "session.revoked", data: { reason: "token_theft" } },
  "user.deleted": { type: "user.deleted" },
  "user.linked": { type: "user.linked" },
  "user.unlinked": { type: "user.unlinked" },
  "rate_limit.locked": { type: "limits.locked" },
};

/** The webhooks room's own event: an endpoint that kept failing was turned off. */
const ownEvents: PublicEvents = {
  "webhook.endpoint_disabled": { type: "webhook.endpoint_disabled" },
};

/** The one table of published events, assembled from the kernel's and every room's (rooms.ts). */
export interface EventTable {
  /** Internal event type → its public name and fixed data. */
  readonly events: PublicEvents;
  /** Every public event type an endpoint may subscribe to, sorted. */
  readonly types: readonly string[];
}

/** The table of this server: the kernel's events, the webhooks room's and the other rooms' (Room.events), assembled in rooms.ts. */
export function webhookEventTable(declared: readonly PublicEvents[]): EventTable {
  return createEventTable([kernelEvents, ownEvents, ...declared]);
}

/** Builds a table from sets of events; an internal event declared twice is a programming error. */
export function createEventTable(sets: readonly PublicEvents[]): EventTable {
  const events: Record<string, PublicEvents[string]> = {};
  for (const set of sets) {
    for (const [name, spec] of Object.entries(set)) {
      if (name in events) throw new Error(`webhook event ${name} is declared twice`);
      events[name] = spec;
    }
  }
  return { events, types: [...new Set(Object.values(events).map((e) => e.type))].sort() };
}

/** A delivery's body as the Standard Webhooks specification shapes it: type, timestamp, data. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The public payload of an internal event, or undefined when that event is not a webhook. */
export function toWebhookPayload(table: EventTable, e: NewEvent): WebhookPayload | undefined {
  const mapped = table.events[e.type];
  if (!mapped) return undefined;
  const own = e.data && typeof e.data === "object" && !Array.isArray(e.data) ? (e.data as Record<string, unknown>) : {};
  return { type: mapped.type, timestamp: new Date(e.at).toISOString(), data: { userId: e.userId, ...own, ...mapped.data } };
}

/** Parses an endpoint's event list ("*" or known public types); throws a message naming the unknown one. */
export function normaliseEventList(table: EventTable, events: unknown): string[] | "*" {
  const webhookEventTypes = table.types;
  if (events === undefined || events === "*" || (Array.isArray(events) && events.length === 1 && events[0] === "*")) return "*";
  const list = typeof events === "string" ? events.split(",").map((s) => s.trim()).filter(Boolean) : events;
  if (!Array.isArray(list) || list.length === 0) throw new Error(`events must be "*" or a list of: ${webhookEventTypes.join(", ")}`);
  for (const t of list) {
    if (typeof t !== "string" || !webhookEventTypes.includes(t)) throw new Error(`unknown event type ${JSON.stringify(t)}; known: ${webhookEventTypes.join(", ")}`);
  }
  return [...new Set(list as string[])].sort();
}
