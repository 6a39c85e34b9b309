import { canonicalEmail } from "../core/emails.js";
import { toUserJson } from "../core/users.js";
import { accountsOf } from "../core/account-operations.js";
import { CdiError, obj, str, type CdiRoute } from "./http.js";

/**
 * The third-party recipe (supertokens-cdi-notes §1.2): the SDK did the provider's exchange itself
 * and asks the core to store who signed in. authsvc's rules for an identity apply (its address
 * follows the provider's, account linking's refusals).
 */
export const thirdPartyRoutes: CdiRoute[] = [
  {
    method: "POST", path: "/recipe/signinup", tenant: true,
    handler: async (c) => {
      const email = obj(c, "email")!;
      if (typeof email.id !== "string") throw new CdiError(400, "Field name 'id' is invalid in JSON input");
      const r = await accountsOf(c.ctx, "providerIdentities").upsert(c.ctx, {
        thirdPartyId: str(c, "thirdPartyId"), thirdPartyUserId: str(c, "thirdPartyUserId"),
        email: canonicalEmail(email.id), emailVerified: email.isVerified === true,
      });
      if (r.status !== "OK") return { status: "EMAIL_CHANGE_NOT_ALLOWED_ERROR", reason: r.reason };
      return { status: "OK", createdNewUser: r.createdNewRecipeUser, user: toUserJson(r.user), recipeUserId: r.recipeUserId };
    },
  },
];
