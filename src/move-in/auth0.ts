import type { ImportFact } from "../core/import-parts.js";
import { compact, jsonObject, millis, MoveInError, providerId, readJsonLines, toInputs, type SourceRecord } from "./common.js";
import type { MoveInSource } from "./source.js";

/**
 * Auth0: the users of a bulk user export job (JSON lines: user_id, email, email_verified,
 * created_at, identities, user_metadata, app_metadata) and, when Auth0's support gave one, the
 * password-hash export (JSON lines: _id.$oid, email, passwordHash, …), in any order. A hash is
 * matched to its user by id (`auth0|<oid>`), else by address. Ids are kept ("auth0|…",
 * "google-oauth2|…"); a database user is a password hash for the address (or, without one, an
 * address alone); a social identity is an identity at its provider with the provider's subject.
 * Auth0 exports no authenticator secrets: users enrol their second factor again.
 */
export const auth0: MoveInSource = {
  id: "auth0",
  files: "the user export (JSON lines) and the password-hash export (JSON lines)",
  async *read(files) {
    const users: Array<{ where: string; user: SourceRecord }> = [];
    const hashById = new Map<string, string>(), hashByEmail = new Map<string, string>();
    for (const file of files) {
      for await (const { line, value } of readJsonLines(file)) {
        const o = jsonObject(value);
        if (!o) throw new MoveInError(`${file} line ${line} is not a JSON object`);
        if (typeof o.passwordHash === "string") {
          const oid = jsonObject(o._id)?.$oid;
          if (typeof oid === "string") hashById.set(`auth0|${oid}`, o.passwordHash);
          if (typeof o.email === "string") hashByEmail.set(o.email.toLowerCase(), o.passwordHash);
        } else if (typeof o.user_id === "string" || typeof o.email === "string") {
          users.push({ where: `${file} line ${line}`, user: o });
        } else {
          throw new MoveInError(`${file} line ${line} is neither an Auth0 user (user_id, email) nor a password hash (_id, passwordHash)`);
        }
      }
    }
    yield* toInputs(users.map(({ where, user: u }) => {
      const email = typeof u.email === "string" ? u.email : undefined;
      const hash = hashById.get(String(u.user_id)) ?? (email ? hashByEmail.get(email.toLowerCase()) : undefined);
      const joined = millis(u.created_at);
      const identities = Array.isArray(u.identities) ? u.identities.map(jsonObject).filter((i): i is SourceRecord => i !== undefined) : [];
      const verified = u.email_verified === true;
      const facts: ImportFact[] = [];
      const database = identities.some((i) => i.provider === "auth0") || (identities.length === 0 && hash !== undefined);
      if (database && hash) facts.push({ fact: "password-hash", email, verified, hash, timeJoined: joined });
      else if (database && email) facts.push({ fact: "address-only", email, verified, timeJoined: joined });
      for (const i of identities) {
        if (i.provider === "auth0" || i.provider === "email" || i.provider === "sms") continue;
        facts.push({ fact: "provider-identity", email, verified, provider: providerId(String(i.provider)), subject: String(i.user_id), timeJoined: joined });
      }
      return {
        where,
        person: {
          id: u.user_id, email, verified, timeJoined: joined, facts,
          metadata: compact({ user_metadata: jsonObject(u.user_metadata), app_metadata: jsonObject(u.app_metadata) }),
        },
      };
    }));
  },
};
