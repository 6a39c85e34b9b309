import { defineEventHandler } from "h3";
import type { AdminRoute } from "../../http/admin/route.js";
import { AuthError } from "../../core/errors.js";
import { listPersonCredentials, removeCredential } from "./credentials.js";
import type { HttpDeps } from "../../http/deps.js";
import { pathParam } from "../../http/admin/input.js";
import type { PersonPagePart } from "../../http/person-panels.js";

/** GET /users/:id/passkeys: the user's passkeys (ids and times, never a key). */
export const userPasskeys = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const passkeys = await listPersonCredentials(deps.ctx, pathParam(event, "id"));
    if (!passkeys) throw new AuthError("NOT_FOUND", "No such user");
    return { passkeys };
  });

/** DELETE /users/:id/passkeys/:credentialId: removes one; 409 when it is the user's last way in. */
export const removeUserPasskey = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const r = await removeCredential(deps.ctx, { userId: pathParam(event, "id"), credentialId: pathParam(event, "credentialId"), source: "admin-api" });
    if (r.status === "CREDENTIAL_NOT_FOUND_ERROR") throw new AuthError("NOT_FOUND", "No such passkey for this user");
    if (r.status === "LAST_WAY_IN") throw new AuthError("CONFLICT", r.reason);
    return { removed: true };
  });

/** Passkeys' admin routes (under /admin/v1). */
export const webauthnAdminRoutes: readonly AdminRoute[] = [
  { method: "GET", path: "/users/:id/passkeys", handler: userPasskeys },
  { method: "DELETE", path: "/users/:id/passkeys/:credentialId", handler: removeUserPasskey },
];

/** On the dashboard's person page: how many passkeys they have, a line of the second factor's panel. */
export const webauthnPersonPage: PersonPagePart = {
  facts: [{ panel: "mfa", term: "Passkeys", load: async (ctx, person) => (await listPersonCredentials(ctx, person.id))?.length ?? 0, render: (n) => String(n) }],
};
