import { refuseImport as refuse, type ImportPart } from "../../core/import-parts.js";
import { insertRows } from "../../store/user-import.js";

/** A provider's login of an imported row; `userId` as a password's. */
interface ImportedIdentity { providerId: string; providerUserId: string; email: string; createdAt: number | undefined; userId?: string }

const PROVIDER = /^[a-z0-9-]{1,64}$/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
const keyOf = (i: { providerId: string; providerUserId: string }) => `${i.providerId}\n${i.providerUserId}`;

/**
 * Provider logins in `users import` (core/import-parts.ts): any number per row, each
 * {"thirdParty": {"id", "userId"}}; a provider's user is one person's, like an address.
 */
export const providerImport: ImportPart<ImportedIdentity[]> = {
  id: "third-party",
  recipeId: "thirdparty",
  login(lm, at, held = []) {
    const tp = lm.thirdParty as Record<string, unknown> | undefined;
    if (!tp || typeof tp !== "object") refuse(`${at.where}.thirdParty is missing`);
    const providerId = typeof tp!.id === "string" && PROVIDER.test(tp!.id) ? tp!.id : refuse(`${at.where}.thirdParty.id must be a provider id such as "google"`);
    const rawUserId = typeof tp!.userId === "number" ? String(tp!.userId) : tp!.userId;
    const providerUserId = typeof rawUserId === "string" && rawUserId.length > 0 && rawUserId.length <= 256 && !CONTROL.test(rawUserId) ? rawUserId : refuse(`${at.where}.thirdParty.userId must be a non-empty string`);
    if (held.some((x) => x.providerId === providerId && x.providerUserId === providerUserId)) refuse(`${at.where} repeats ${providerId} user ${providerUserId}`);
    return [...held, { providerId, providerUserId, email: at.email, createdAt: at.createdAt, userId: at.userId }];
  },
  // An identity at a provider that another system kept (move-in/): a login with that provider's subject.
  takes: { "provider-identity": { login: (f) => ({ thirdParty: { id: f.provider, userId: f.subject } }) } },
  addresses: (ids) => ids.map((i) => i.email),
  claims: (ids) => ids.map((i) => ({ key: keyOf(i), name: `${i.providerId} user ${i.providerUserId}` })),
  findClaimed: async (db, parts) => {
    const pairs = parts.flat();
    if (pairs.length === 0) return new Map();
    const rows = await db.selectFrom("third_party_identities").select(["provider_id", "provider_user_id", "user_id"])
      .where("provider_user_id", "in", [...new Set(pairs.map((p) => p.providerUserId))]).execute();
    return new Map(rows.map((r) => [keyOf({ providerId: r.provider_id, providerUserId: r.provider_user_id }), r.user_id]));
  },
  insert: (tx, people, { now }) => insertRows(tx, "third_party_identities", people.flatMap(({ id, joined, part }) => part.map((i) => (
    { provider_id: i.providerId, provider_user_id: i.providerUserId, user_id: i.userId ?? id, email: i.email, created_at: i.createdAt ?? joined, updated_at: now })))),
};
