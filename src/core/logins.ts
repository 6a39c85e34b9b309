import type { Expression, Kysely } from "kysely";
import { preparePeopleByEmail, type PersonWithEmail, type UserIdQuery } from "../store/people.js";
import type { DB } from "../store/schema.js";
import type { CoreContext } from "./context.js";
import type { LoginMethod } from "./users.js";

/**
 * The kinds of login a person can have, each declared by the sign-in method that owns its tables
 * (Room.logins): how the method lists the logins of some recipe users. Every view of a person's
 * logins reads them through this one function, looped over the declared kinds: the USER object
 * (getUser, the admin list, search, export), the account page's list and the notice a join mails.
 * The kernel never names a method.
 */

/** One login as its method reports it: never a secret. */
export interface Login {
  /** The method's recipe id (the USER object's loginMethods[].recipeId). */
  recipeId: string;
  recipeUserId: string;
  /** The login's own address. */
  email: string;
  createdAt: number;
  /** How a mail names it: "a password", "google sign-in". */
  phrase: string;
  /** The method's own fields of the USER object's login method (PROTOCOL.md §6), e.g. its provider. */
  fields?: Record<string, unknown>;
  /** What the account page shows beside it: the provider, or how many keys it holds (a passkey login's passkeys, those removeUnprovenKeys may remove). */
  provider?: string;
  keys?: number;
}

/** A kind of login, declared by its method (Room.logins). */
export interface LoginKind {
  recipeId: string;
  /**
   * How operators' tools name it: a word in lists ("password"), a label on a person's page ("Email
   * and password"), and how a sentence says a person signs in with it ("a passkey").
   */
  names: { short: string; label: string; signsInWith: string };
  /** What tells its logins apart (the provider of a provider's login) and more about one (the user there). */
  which?(m: LoginMethod): { id: string; detail: string } | undefined;
  /**
   * How the account page's list names a login of this kind: the id of a word in the room's catalogue
   * (said in the page's locale), or text as it is ("Password"); a {field} stands for the login's own
   * in that list ("{provider}", "{passkeys}").
   */
  accountLabel?: string;
  /** What a person's page adds after its label: how many passkeys a passkey login holds. */
  extent?(m: LoginMethod): string | undefined;
  /** The logins of these recipe users (a fixed number of queries however many). */
  list(db: Kysely<DB>, userIds: readonly string[]): Promise<Login[]>;
  /** The method's fields at the top of the USER object, from the person's logins of this kind (in order). */
  userFields?(logins: readonly Login[]): Record<string, unknown>;
  /**
   * The select of the recipe users with a login of this kind at this address (which may not be the
   * user's current one): the kernel runs it, or puts it in a query of its own (findPeopleByAddress).
   */
  findByAddress?(db: Kysely<DB>, email: string): UserIdQuery;
  /** Its logins at any of these addresses, with the recipe user each belongs to: a query the kernel unites with the others'. */
  addressOwners?(db: Kysely<DB>, emails: readonly string[]): Expression<{ email: string; user_id: string }>;
  /**
   * Its logins in `users export`: false keeps them out (a passkey is bound to this server's RP ID);
   * else what each login's record adds to its fields (a password's hash), by recipe user id.
   */
  exported?: false | ((db: Kysely<DB>, userIds: readonly string[]) => Promise<Map<string, Record<string, unknown>>>);
  /**
   * A recovery proved only the login that received the mail: removes the other keys that login
   * holds (a passkey login's other passkeys) but `keep`, the one the recovery registered; returns
   * the removed ids (core/first-proof.ts).
   */
  removeUnprovenKeys?(tx: Kysely<DB>, recipeUserId: string, keep: string | undefined): Promise<string[]>;
  /** The address alone signs such a login in (a password): preferred when an address names several users. */
  signsInByAddress?: boolean;
  /**
   * Someone asked to recover a login of another kind at `email` (a password reset) and the address
   * has none: what logins of this kind there tell the address instead. Queues its mail and event in
   * `tx` and returns the outcome's name (for the CLI), or undefined when it has none at the address.
   */
  recoveryNotice?(tx: Kysely<DB>, ctx: CoreContext, p: { email: string; now: number; source: string }): Promise<string | undefined>;
  /** Its logins have a password the person knows: what the self-service account reads and writes of one. */
  password?: PasswordLogins;
}

/**
 * A kind whose logins sign in with a password (LoginKind.password): the self-service account
 * checks it before a dangerous change, changes it, and changes the login's address (src/account/).
 */
export interface PasswordLogins {
  /** The recipe user's password login, if it is one: its address and the stored hash. */
  find(db: Kysely<DB>, recipeUserId: string): Promise<{ recipeUserId: string; email: string; hash: string } | undefined>;
  /** Replaces the hash only if it is still `was`, the one that was checked (a concurrent change wins). */
  replaceHash(db: Kysely<DB>, recipeUserId: string, was: string, next: string, now: number): Promise<void>;
  /** Sets the login's own address (the users row is the kernel's). */
  setEmail(db: Kysely<DB>, recipeUserId: string, email: string, now: number): Promise<void>;
}

/**
 * How a room moves what a person owns when two people are joined (core/person-join.ts): every row
 * of `from` goes to `to`, nothing is dropped and no requirement gets weaker. Returns what moved, for
 * the `user.linked` event's `moved`.
 */
export type MergePerson = (tx: Kysely<DB>, ctx: CoreContext, p: { from: string; to: string; now: number }) => Promise<Record<string, unknown>>;

/** Every login of these recipe users, of every declared kind, oldest first. */
export async function readLogins(db: Kysely<DB>, kinds: readonly LoginKind[], userIds: readonly string[]): Promise<Login[]> {
  if (userIds.length === 0) return [];
  const lists = await Promise.all(kinds.map((k) => k.list(db, userIds)));
  const order = new Map(userIds.map((id, i) => [id, i]));
  return lists.flat().sort((a, b) => a.createdAt - b.createdAt || order.get(a.recipeUserId)! - order.get(b.recipeUserId)!);
}

/** The top fields every kind adds to the USER object, in the kinds' order. */
export function userFieldsOf(kinds: readonly LoginKind[], logins: readonly Login[]): Record<string, unknown> {
  return Object.assign({}, ...kinds.map((k) => k.userFields?.(logins.filter((l) => l.recipeId === k.recipeId)) ?? {}));
}

/** The recipe users with a login at this address, of every kind (`preferred`: only kinds the address alone signs in). */
export async function findByAddress(db: Kysely<DB>, kinds: readonly LoginKind[], email: string, opts: { preferred?: boolean } = {}): Promise<string[]> {
  const found = await Promise.all(kinds.filter((k) => !opts.preferred || k.signsInByAddress).map(async (k) =>
    k.findByAddress ? (await db.executeQuery(k.findByAddress(db, email).compile())).rows.map((r) => r.user_id) : []));
  return found.flat();
}

/**
 * Which of these addresses belong to a user already (as a user's address or on a login of any
 * kind), with one owner each: address -> user id. One query, however many kinds.
 */
export async function findAddressOwners(db: Kysely<DB>, kinds: readonly LoginKind[], emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  let q = db.selectFrom("users").select(["email", "id as user_id"]).where("email", "in", emails);
  for (const k of kinds) if (k.addressOwners) q = q.union(k.addressOwners(db, emails));
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.email, r.user_id]));
}

/** A recovery's eviction of the proving login's other keys, of every kind that holds some: their ids. */
export async function removeUnprovenKeys(tx: Kysely<DB>, kinds: readonly LoginKind[], recipeUserId: string, keep: string | undefined): Promise<string[]> {
  const removed: string[] = [];
  for (const k of kinds) if (k.removeUnprovenKeys) removed.push(...await k.removeUnprovenKeys(tx, recipeUserId, keep));
  return removed;
}

const kindOf = (kinds: readonly LoginKind[], m: LoginMethod) => kinds.find((k) => k.recipeId === m.recipeId);

/** A login in a few words, for the CLI: its recipe id and what tells it apart (`<recipeId>:<which>`, which the kind says); `detail` adds more. */
export function loginRef(kinds: readonly LoginKind[], m: LoginMethod, opts: { detail?: boolean } = {}): string {
  const which = kindOf(kinds, m)?.which?.(m);
  if (!which) return m.recipeId;
  return opts.detail ? `${m.recipeId} (${which.id}, ${which.detail})` : `${m.recipeId}:${which.id}`;
}

/** A login's name in an operator's list (the kind's short name, what tells it apart in brackets) or, `label`, on a person's page. */
export function loginName(kinds: readonly LoginKind[], m: LoginMethod, opts: { label?: boolean } = {}): string {
  const kind = kindOf(kinds, m);
  if (!kind) return m.recipeId;
  const name = opts.label ? kind.names.label : kind.names.short;
  const more = kind.which?.(m)?.id ?? (opts.label ? kind.extent?.(m) : undefined);
  return more === undefined ? name : `${name} (${more})`;
}

/** The people who have `email` as a user's address or on a login of any kind, with whether they verified it. */
export async function findPeopleByAddress(db: Kysely<DB>, kinds: readonly LoginKind[], email: string): Promise<PersonWithEmail[]> {
  let read = peopleByAddress.get(kinds);
  if (!read) {
    read = preparePeopleByEmail(kinds.flatMap((k) => (k.findByAddress ? [k.findByAddress] : [])));
    peopleByAddress.set(kinds, read);
  }
  return read(db, email);
}

// One read per list of kinds (an app's CoreContext.logins), built and compiled once (store/prepared.ts).
const peopleByAddress = new WeakMap<readonly LoginKind[], (db: Kysely<DB>, email: string) => Promise<PersonWithEmail[]>>();
