import { findPersonId } from "../store/people.js";
import { searchPeopleByEmailPrefix, type EmailKey } from "../store/user-search.js";
import type { UserRow } from "../store/users.js";
import type { CoreContext } from "./context.js";
import { badInput } from "./errors.js";
import { loadUserViews } from "./user-directory.js";
import { getUser, type UserView } from "./users.js";

/**
 * The dashboard's user search: one box that takes an email prefix or a user id. An id (any login
 * method's, so a support ticket quoting an old id still lands) names its person; anything else is a
 * case-insensitive email prefix over people, walked in (email, id) order page by page with keyset
 * cursors both ways, so it stays as fast at a million users as at a thousand.
 */

export interface PeopleSearchPage {
  users: UserView[];
  /** How the query was read: an id that named a person, or an email prefix. */
  matchedBy: "id" | "email-prefix";
  /** Cursors for the pages after and before this one (null at either end). */
  next: string | null;
  previous: string | null;
}

export const SEARCH_PAGE_SIZE = 50;
const MAX_QUERY = 320;

/** Opaque cursor: a row's key in the (email, id) order. */
function encodeKey(k: EmailKey): string {
  return Buffer.from(JSON.stringify([k.email, k.id])).toString("base64url");
}

function decodeKey(cursor: string): EmailKey {
  try {
    const [email, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof email === "string" && typeof id === "string" && id.length > 0 && id.length <= 200 && email.length <= MAX_QUERY) return { email, id };
  } catch { /* falls through */ }
  throw badInput("That page link is not valid any more: search again.");
}

const keyOf = (r: UserRow): EmailKey => ({ email: r.email, id: r.id });

/**
 * A page of people for `query` (empty: everyone, by email). `after` / `before` are the cursors of
 * the page on screen (`next` / `previous` of the last answer); bad ones are BAD_INPUT.
 */
export async function searchPeople(ctx: CoreContext, opts: { query?: string; after?: string; before?: string; limit?: number }): Promise<PeopleSearchPage> {
  const db = ctx.store.db;
  const limit = opts.limit ?? SEARCH_PAGE_SIZE;
  const raw = (opts.query ?? "").trim();
  if (raw.length > MAX_QUERY) throw badInput(`Search for at most ${MAX_QUERY} characters.`);
  if (raw && !opts.after && !opts.before) {
    const personId = await findPersonId(db, raw);
    if (personId !== undefined) {
      const person = await getUser(ctx, personId);
      return { users: person ? [person] : [], matchedBy: "id", next: null, previous: null };
    }
  }
  // Addresses are stored canonical (trimmed, lower-case), so lower-casing the prefix is the whole of "case-insensitive".
  const prefix = raw.toLowerCase();
  const after = opts.after ? decodeKey(opts.after) : undefined;
  const before = opts.before ? decodeKey(opts.before) : undefined;
  if (after && before) throw badInput("Give one page cursor, not two.");
  // One row more than shown says whether the walk goes on in its direction.
  const rows = await searchPeopleByEmailPrefix(db, { prefix, limit: limit + 1, after, before });
  const more = rows.length > limit;
  const page = before ? rows.slice(rows.length - Math.min(rows.length, limit)) : rows.slice(0, limit);
  const first = page[0];
  const last = page[page.length - 1];
  const next = last && (before ? true : more) ? encodeKey(keyOf(last)) : null;
  const previous = first && (before ? more : after !== undefined) ? encodeKey(keyOf(first)) : null;
  const users = await loadUserViews(db, ctx.logins, page);
  return { users, matchedBy: "email-prefix", next, previous };
}
