import { linkUsers, unlinkUser } from "../core/linking-admin.js";
import { getUser, toUserJson } from "../core/users.js";
import { findPersonId } from "../store/people.js";
import { signRs256 } from "../util/signing-thread.js";
import { CdiError, obj, optStr, str, type CdiCall, type CdiRoute } from "./http.js";

/** authsvc's person of a user id, or the core's 400 for an unknown one. */
async function personOf(c: CdiCall, field: string): Promise<{ id: string; person: string }> {
  const id = str(c, field);
  const person = await findPersonId(c.ctx.store.db, id);
  if (person === undefined) throw new CdiError(400, `Unknown user id: ${id}`);
  return { id, person };
}

const linkedElsewhere = (status: string, primaryUserId: string) => ({ status, primaryUserId, description: "The input recipe user ID is already linked to another user ID" });

/**
 * Account linking (supertokens-cdi-notes §1.10) over authsvc's persons: a user id that is no one
 * else's login is its own person, so "making it primary" changes nothing; a link is the operator's
 * join (core/linking-admin.ts: every login of the other person moves, nothing is lost); an unlink
 * makes a login a person of its own again. And JWT creation (§1.5) with the key ring's key.
 */
export const accountLinkingRoutes: CdiRoute[] = [
  {
    method: "GET", path: "/recipe/accountlinking/user/primary/check",
    handler: async (c) => {
      const { id, person } = await personOf(c, "recipeUserId");
      if (person !== id) return linkedElsewhere("RECIPE_USER_ID_ALREADY_LINKED_WITH_PRIMARY_USER_ID_ERROR", person);
      return { status: "OK", wasAlreadyAPrimaryUser: (await getUser(c.ctx, id))!.isPrimaryUser };
    },
  },
  {
    method: "POST", path: "/recipe/accountlinking/user/primary",
    handler: async (c) => {
      const { id, person } = await personOf(c, "recipeUserId");
      if (person !== id) return linkedElsewhere("RECIPE_USER_ID_ALREADY_LINKED_WITH_PRIMARY_USER_ID_ERROR", person);
      const user = (await getUser(c.ctx, id))!;
      return { status: "OK", user: toUserJson(user), wasAlreadyAPrimaryUser: user.isPrimaryUser };
    },
  },
  {
    method: "GET", path: "/recipe/accountlinking/user/link/check",
    handler: async (c) => {
      const recipe = await personOf(c, "recipeUserId");
      const primary = await personOf(c, "primaryUserId");
      if (recipe.person === primary.person) return { status: "OK", accountsAlreadyLinked: true };
      if (recipe.person !== recipe.id) return linkedElsewhere("RECIPE_USER_ID_ALREADY_LINKED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR", recipe.person);
      return { status: "OK", accountsAlreadyLinked: false };
    },
  },
  {
    method: "POST", path: "/recipe/accountlinking/user/link",
    handler: async (c) => {
      const recipe = await personOf(c, "recipeUserId");
      const primary = await personOf(c, "primaryUserId");
      if (recipe.person !== primary.person && recipe.person !== recipe.id) {
        return { ...linkedElsewhere("RECIPE_USER_ID_ALREADY_LINKED_WITH_ANOTHER_PRIMARY_USER_ID_ERROR", recipe.person), user: toUserJson((await getUser(c.ctx, recipe.person))!) };
      }
      const r = await linkUsers(c.ctx, primary.person, recipe.id, "cdi");
      if (r.status !== "OK") throw new CdiError(400, `Unknown user id: ${r.id}`);
      return { status: "OK", accountsAlreadyLinked: !r.changed, user: toUserJson((await getUser(c.ctx, r.personId))!) };
    },
  },
  {
    method: "POST", path: "/recipe/accountlinking/user/unlink",
    handler: async (c) => {
      const r = await unlinkUser(c.ctx, str(c, "recipeUserId"), "cdi");
      if (r.status === "NOT_FOUND") throw new CdiError(400, `Unknown user id: ${str(c, "recipeUserId")}`);
      return { status: "OK", wasRecipeUserDeleted: false, wasLinked: r.status === "OK" };
    },
  },
  {
    method: "POST", path: "/recipe/jwt",
    handler: async (c) => {
      if ((optStr(c, "algorithm") ?? "RS256") !== "RS256") return { status: "UNSUPPORTED_ALGORITHM_ERROR" };
      const validity = c.body.validity;
      if (typeof validity !== "number" || !Number.isSafeInteger(validity) || validity <= 0) throw new CdiError(400, "Field name 'validity' is invalid in JSON input");
      const payload = obj(c, "payload")!;
      const iat = Math.floor(c.ctx.clock.now() / 1000);
      const jwksDomain = optStr(c, "jwksDomain");
      const claims = { ...payload, iat, exp: iat + validity, ...(jwksDomain ? { iss: jwksDomain } : {}) };
      const { kid, key } = await c.ctx.keys.signingKey();
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");
      const data = `${b64({ alg: "RS256", typ: "JWT", kid })}.${b64(claims)}`;
      return { status: "OK", jwt: `${data}.${await signRs256(data, key, kid)}` };
    },
  },
];
