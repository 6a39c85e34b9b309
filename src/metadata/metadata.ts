import type { ClaimProvider } from "../core/claims.js";
import type { CoreContext } from "../core/context.js";
import { badInput } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { findPersonId } from "../store/people.js";
import * as store from "./store.js";

/**
 * User metadata (SuperTokens' usermetadata recipe): one JSON object per person that belongs to the
 * app (a plan, a display name, preferences). Updates are shallow merges: each top-level key of
 * the update replaces the stored one, and `null` deletes it. The stored object is limited to
 * config.metadataMaxBytes of JSON, so it stays small enough to travel in a token when
 * config.metadataClaim copies it there (metadataClaim below).
 */

export type Metadata = Record<string, unknown>;
export type MetadataResult = { status: "OK"; userId: string; metadata: Metadata } | { status: "UNKNOWN_USER" } | { status: "TOO_LARGE"; bytes: number; limit: number };

/** The person's metadata ({} when none); undefined when there is no such user. */
export async function getMetadata(ctx: CoreContext, userId: string): Promise<{ userId: string; metadata: Metadata } | undefined> {
  const personId = await findPersonId(ctx.store.db, userId);
  if (personId === undefined) return undefined;
  return { userId: personId, metadata: parse(await store.findMetadata(ctx.store.db, personId)) };
}

/**
 * Merges `update` into the person's metadata in one transaction (read, merge, size check, write,
 * event), so two concurrent updates of different keys both land. Nothing changes when the result
 * would pass the size limit.
 */
export async function updateMetadata(ctx: CoreContext, userId: string, update: unknown, source = "api"): Promise<MetadataResult> {
  const patch = checkUpdate(update);
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<MetadataResult> => {
    const personId = await findPersonId(tx, userId);
    if (personId === undefined) return { status: "UNKNOWN_USER" };
    await store.lockPerson(tx, personId);
    const current = new Map(Object.entries(parse(await store.findMetadata(tx, personId))));
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) current.delete(k);
      else current.set(k, v);
    }
    const merged = Object.fromEntries(current);
    const text = JSON.stringify(merged);
    const bytes = Buffer.byteLength(text);
    if (bytes > ctx.config.metadataMaxBytes) return { status: "TOO_LARGE", bytes, limit: ctx.config.metadataMaxBytes };
    await store.writeMetadata(tx, personId, current.size === 0 ? undefined : text, now);
    await insertEvent(tx, { at: now, type: "user.metadata_changed", userId: personId, data: { keys: Object.keys(patch), source } });
    return { status: "OK", userId: personId, metadata: merged };
  });
}

/** Deletes all of a person's metadata. */
export async function clearMetadata(ctx: CoreContext, userId: string, source = "api"): Promise<MetadataResult> {
  const now = ctx.clock.now();
  return ctx.store.writeTx(async (tx): Promise<MetadataResult> => {
    const personId = await findPersonId(tx, userId);
    if (personId === undefined) return { status: "UNKNOWN_USER" };
    await store.writeMetadata(tx, personId, undefined, now);
    await insertEvent(tx, { at: now, type: "user.metadata_changed", userId: personId, data: { cleared: true, source } });
    return { status: "OK", userId: personId, metadata: {} };
  });
}

/**
 * The person's metadata in every access token under config.metadataClaim (off when unset),
 * recomputed at each refresh like the other claims. Left out when the person has none.
 */
export function createMetadataClaim(claim: string | undefined): ClaimProvider[] {
  if (!claim) return [];
  return [{
    keys: [claim],
    compute: async (tx, subject) => {
      const text = await store.findMetadata(tx, subject.personId);
      return { [claim]: text === undefined ? undefined : parse(text) };
    },
  }];
}

/** An update must be a JSON object; `__proto__` is refused rather than merged. */
export function checkUpdate(update: unknown): Metadata {
  if (update === null || typeof update !== "object" || Array.isArray(update)) throw badInput("metadata must be a JSON object (each top-level key replaces the stored one; null deletes it)");
  for (const k of Object.keys(update)) {
    if (k === "__proto__") throw badInput("metadata keys must not be __proto__");
    if (k.length > 200) throw badInput("metadata keys are at most 200 characters");
  }
  const bad = findNonFinite(update);
  if (bad !== undefined) throw badInput(`metadata numbers must be finite: ${bad} is out of range (JSON would store it as null, which deletes the key)`);
  return update as Metadata;
}

/** The path of a number JSON cannot hold (1e999999 parses as Infinity and would be stored as null), if any. */
function findNonFinite(v: unknown, path = "metadata"): string | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? undefined : path;
  if (v === null || typeof v !== "object") return undefined;
  for (const [k, child] of Object.entries(v)) {
    const found = findNonFinite(child, Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`);
    if (found) return found;
  }
  return undefined;
}

function parse(text: string | undefined): Metadata {
  if (text === undefined) return {};
  const v: unknown = JSON.parse(text);
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Metadata) : {};
}
