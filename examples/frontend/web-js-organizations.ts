// Switching the active organization with supertokens-web-js: authsvc re-issues the access token
// with the new `org` claim ({id, slug, role, permissions}) in the answer, and the SDK's fetch
// interception reads its front-token, so the new claim is seen at once. Tested with
// supertokens-web-js 0.16.
import SuperTokens from "supertokens-web-js";
import Session from "supertokens-web-js/recipe/session";
import EmailPassword from "supertokens-web-js/recipe/emailpassword";

const apiDomain = "http://localhost:3567";
SuperTokens.init({
  appInfo: { appName: "My app", apiDomain, apiBasePath: "/auth" },
  recipeList: [Session.init({ tokenTransferMethod: "cookie" }), EmailPassword.init()],
});

export async function signIn(email: string, password: string): Promise<boolean> {
  const r = await EmailPassword.signIn({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
  return r.status === "OK";
}

export interface OrgClaim { id: string; slug: string; role: string; permissions: string[] }

/** The active organization in the token now (null: none). */
export async function activeOrganization(): Promise<OrgClaim | null> {
  return ((await Session.getAccessTokenPayloadSecurely()).org ?? null) as OrgClaim | null;
}

/** The organization switcher: make another of my organizations the active one (null: none). */
export async function switchOrganization(organizationId: string | null): Promise<OrgClaim | null> {
  const res = await fetch(`${apiDomain}/auth/organizations/active`, {
    method: "PUT", credentials: "include", headers: { "content-type": "application/json" },
    body: JSON.stringify({ organizationId }),
  });
  if (!res.ok) throw new Error(`switching was refused (${res.status})`);
  return activeOrganization(); // the re-issued token's claim, as the SDK sees it
}
