// Roles and permissions in your own screens with supertokens-web-js: authsvc puts the user's roles
// and permissions in the access token (st-role, st-perm), and the SDK's UserRoleClaim and
// PermissionClaim validators read them. Tested with supertokens-web-js 0.16.
import SuperTokens from "supertokens-web-js";
import Session from "supertokens-web-js/recipe/session";
import EmailPassword from "supertokens-web-js/recipe/emailpassword";
import { PermissionClaim, UserRoleClaim } from "supertokens-web-js/recipe/userroles";

SuperTokens.init({
  appInfo: { appName: "My app", apiDomain: "http://localhost:3567", apiBasePath: "/auth" },
  recipeList: [Session.init({ tokenTransferMethod: "cookie" }), EmailPassword.init()],
});

export async function signIn(email: string, password: string): Promise<boolean> {
  const r = await EmailPassword.signIn({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
  return r.status === "OK";
}

/** Show the admin screen only to admins: the claim validators return no errors when the check passes. */
export async function isAdmin(): Promise<boolean> {
  const errors = await Session.validateClaims({ overrideGlobalClaimValidators: (globals) => [...globals, UserRoleClaim.validators.includes("admin")] });
  return errors.length === 0;
}

/** Whether the user may do one thing (any of their roles carries the permission). */
export async function may(permission: string): Promise<boolean> {
  const errors = await Session.validateClaims({ overrideGlobalClaimValidators: (globals) => [...globals, PermissionClaim.validators.includes(permission)] });
  return errors.length === 0;
}

/** The roles in the token now. A role given or taken shows after the next refresh. */
export async function roles(): Promise<string[]> {
  return (await Session.getClaimValue({ claim: UserRoleClaim })) ?? [];
}

/** After the app's backend changed the user's roles: fetch a token with the new ones at once. */
export async function refreshRoles(): Promise<void> {
  await Session.attemptRefreshingSession();
}
