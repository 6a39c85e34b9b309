import type { Kysely } from "kysely";
import type { Config } from "../config/types.js";
import type { DB } from "../store/schema.js";

/**
 * A room's part of the import record (`users import`, docs/operations.md "Import and export"; the
 * export side is LoginKind.exported), declared by the room (Room.importer): the login methods of
 * its recipe id and its fields at the record's top, parsed and checked row by row, then written
 * inside the import's transactions (ops/import-users.ts). The kernel reads the rest of a record
 * (id, address, verified, linked users), loops over the parts in the rooms' order and never
 * names one. A person created outside an import with such top fields (lazy migration's
 * metadata) goes through the same parts: readPersonTop below. `P` is what the part keeps of one row.
 */
export interface ImportPart<P = unknown> {
  /** Its key on a parsed row (the room's id). */
  id: string;
  /** The login methods it reads (the record's loginMethods[].recipeId). */
  recipeId?: string;
  /**
   * A short form other systems can produce easily: the login method a record without
   * loginMethods stands for (undefined: not this form), and how a refusal names the form.
   */
  shortForm?: { login(record: Record<string, unknown>): Record<string, unknown> | undefined; hint: string };
  /** Its fields at the record's top (read before the login methods); undefined when the record has none. */
  top?(record: Record<string, unknown>): P | undefined;
  /**
   * Its top fields say something about the person rather than about a login: read right after
   * the kernel's own fields, before the other parts' top fields (which follow in the rooms'
   * order), so a row's refusals keep coming in the record's order.
   */
  topFirst?: boolean;
  /** One of its login methods, added to what the row held of it so far (`held`; undefined at first). */
  login?(method: Record<string, unknown>, at: ImportedLogin, held: P | undefined): P;
  /** The addresses its logins use (one address, one person: checked against everyone's). */
  addresses?(part: P): string[];
  /** What else only one person may hold (a provider's user): `key` to compare, `name` for the report. */
  claims?(part: P): Array<{ key: string; name: string }>;
  /** Which of these rows' claims someone holds already: key -> user id (a fixed number of queries). */
  findClaimed?(db: Kysely<DB>, parts: P[]): Promise<Map<string, string>>;
  /**
   * The facts about a person another system exported (ImportFacts, read by move-in/) that it
   * takes, each turned into its piece of the record: `login`, its own fields of a login method
   * of its recipeId for one fact; `top`, its fields at the record's top for all of a person's
   * facts of that kind. The first part (in the rooms' order) that takes a kind gets it.
   */
  takes?: { [K in FactKind]?: FactUse<K> };
  /**
   * Checks its piece of a row against this server's settings (a size limit), once the whole
   * record is read and has passed every other check of it; refuses (refuseImport) when the
   * settings do not allow it. The reason is reported as it is, without the source's `where`.
   */
  checkSettings?(part: P, config: Readonly<Config>): void;
  /** Writes its rows for these people (inside the import's transaction, after their users). */
  insert(tx: Kysely<DB>, people: ReadonlyArray<ImportedPerson<P>>, at: { now: number; secret: string | undefined }): Promise<void>;
}

/**
 * What another system knows about a person, in neutral words (move-in/ reads them from the
 * other system's exports; no room is named): each kind with its own fields. A source says only
 * what it read; the rooms' parts say what they make of it (ImportPart.takes).
 */
export interface ImportFacts {
  /** A password hash for an address, as the other system stored it (a format core/hash-formats/ reads). */
  "password-hash": { hash: unknown };
  /** An identity at an external provider (our provider id, e.g. "google") and its subject there. */
  "provider-identity": { provider: string; subject: unknown };
  /** An address the person signs in with and no secret that moves with it (the other system had none, or kept it). */
  "address-only": object;
  /** An authenticator app's secret (Base32), and the device's name when the other system kept one. */
  "authenticator-secret": { secret: unknown; name?: unknown };
  /** The other system asks the person to set an authenticator app up at their next sign-in. */
  "authenticator-required": object;
  /** An app-wide role the person held there, by name. */
  "role": { role: unknown };
  /** A group the person belonged to there, which becomes an organization (by its name) they are a member of. */
  "organization-membership": { organization: unknown };
}
export type FactKind = keyof ImportFacts;

/**
 * What a fact may say about the login it stands for, in the import format's own words (the
 * kernel reads them for every login method, ops/user-record.ts): its address, whether the other
 * system had it verified, when it began, and the other system's own user id for it (a linked user).
 */
export interface FactLogin { email?: string; verified?: boolean; timeJoined?: number; recipeUserId?: string }

/** One fact about a person: its kind, what it says about its login, and its own fields. */
export type ImportFact<K extends FactKind = FactKind> = K extends FactKind ? { fact: K } & FactLogin & ImportFacts[K] : never;

/** How a part uses a kind of fact (ImportPart.takes). */
export interface FactUse<K extends FactKind> {
  /** Its own fields of the login method the fact becomes (placed where the fact's own fields stand). */
  login?(fact: ImportFact<K>): Record<string, unknown>;
  /** Its fields at the record's top for all of a person's facts of this kind. */
  top?(facts: Array<ImportFact<K>>): Record<string, unknown>;
}

/** How a refusal names a fact no part takes. */
export const FACT_NAMES: Readonly<Record<FactKind, string>> = {
  "password-hash": "a password hash",
  "provider-identity": "an identity at a provider",
  "address-only": "an address without a password",
  "authenticator-secret": "an authenticator app's secret",
  "authenticator-required": "an authenticator app to set up",
  "role": "a role",
  "organization-membership": "a group to become an organization",
};

/** Where a login method sits in the record, and what the kernel read of it. */
export interface ImportedLogin {
  /** "loginMethods[2]", for refusals. */
  where: string;
  /** Its address (the record's when it gives none), canonical. */
  email: string;
  createdAt: number | undefined;
  /** The linked user it belongs to (its recipeUserId); the person's own when undefined. */
  userId: string | undefined;
}

/** A person being written, with the part's piece of its row. */
export interface ImportedPerson<P> {
  id: string;
  /** When the person joined (the record's timeJoined, else now): a login's default. */
  joined: number;
  part: P;
}

/**
 * What the parts read at one record's top (their `top`, the parts with `topFirst` first, then the
 * others in the rooms' order, so refusals come in the record's order): part id -> its piece.
 */
export function readTop(parts: readonly ImportPart[], record: Record<string, unknown>): Map<string, unknown> {
  const pieces = new Map<string, unknown>();
  for (const part of [...parts.filter((p) => p.topFirst), ...parts.filter((p) => !p.topFirst)]) {
    const piece = part.top?.(record);
    if (piece !== undefined) pieces.set(part.id, piece);
  }
  return pieces;
}

/**
 * One person created elsewhere than in an import (a user an old system vouched for) with the
 * fields of an import record's top: read and checked as `users import` would, this server's
 * settings included, before anything is written (a refusal is an ImportRefusal), then written by
 * insertPersonTop for the new user inside the transaction that creates it.
 */
export function readPersonTop(parts: readonly ImportPart[], record: Record<string, unknown>, config: Readonly<Config>): ReadonlyMap<string, unknown> {
  const pieces = readTop(parts, record);
  checkPartSettings(parts, pieces, config);
  return pieces;
}

/** Each part's `checkSettings` on its piece, in the rooms' order: the first refusal is thrown (an ImportRefusal). */
export function checkPartSettings(parts: readonly ImportPart[], pieces: ReadonlyMap<string, unknown>, config: Readonly<Config>): void {
  for (const part of parts) if (part.checkSettings && pieces.has(part.id)) part.checkSettings(pieces.get(part.id), config);
}

/** Writes what readPersonTop read for one new user, part by part in the rooms' order. */
export async function insertPersonTop(tx: Kysely<DB>, parts: readonly ImportPart[], pieces: ReadonlyMap<string, unknown>, person: { id: string; joined: number }, at: { now: number; secret: string | undefined }): Promise<void> {
  for (const part of parts) if (pieces.has(part.id)) await part.insert(tx, [{ ...person, part: pieces.get(part.id) }], at);
}

/** A row refused: the reason, as the import's report lists it. */
export class ImportRefusal extends Error {}

export const refuseImport = (why: string): never => { throw new ImportRefusal(why); };
