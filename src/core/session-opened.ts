import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";

/**
 * Work a room does whenever a session opens (Room.sessionOpened), in the transaction that writes
 * it (core/sessions.ts openSession): e.g. the security-mails room remembers the device and, for one
 * it never saw, queues the mail. Every sign-in method's session passes here, the sign-up's first too.
 */
export type SessionOpened = (tx: Kysely<DB>, ctx: CoreContext, s: {
  personId: string;
  userId: string;
  sessionHandle: string;
  /** Where the sign-in came from; absent when no request opened it. */
  client?: { ip?: string; userAgent?: string };
  /** The person was created in this transaction (a sign-up). */
  newUser: boolean;
  now: number;
}) => Promise<void>;
