// The frontend of the CDI's browser test: supertokens-web-js against an app backend on
// supertokens-node whose core is authsvc (test/fixtures/cdi/express-app.mjs), in header mode; bundled by test/browser/cdi-web-js.test.ts.
import SuperTokens from "supertokens-web-js";
import EmailPassword from "supertokens-web-js/recipe/emailpassword/index.js";
import EmailVerification from "supertokens-web-js/recipe/emailverification/index.js";
import Session from "supertokens-web-js/recipe/session/index.js";

const apiDomain = "http://localhost:3001";
SuperTokens.init({
  appInfo: { appName: "cdi-test", apiDomain, apiBasePath: "/auth" },
  recipeList: [Session.init({ tokenTransferMethod: "header" }), EmailPassword.init(), EmailVerification.init()],
});

const fields = (email: string, password: string) => [{ id: "email", value: email }, { id: "password", value: password }];

export async function signUp(email: string, password: string): Promise<string> {
  return (await EmailPassword.signUp({ formFields: fields(email, password) })).status;
}
export async function signIn(email: string, password: string): Promise<string> {
  return (await EmailPassword.signIn({ formFields: fields(email, password) })).status;
}
export async function sendVerificationMail(): Promise<string> {
  return (await EmailVerification.sendVerificationEmail()).status;
}
export async function verifyEmail(token: string): Promise<string> {
  history.replaceState(null, "", `/auth/verify-email?token=${encodeURIComponent(token)}&tenantId=public`);
  return (await EmailVerification.verifyEmail()).status;
}
/** The app's own protected route through the SDK's fetch interception (refreshes on a 401). */
export async function me(path = "/me"): Promise<{ status: number; body: unknown }> {
  const res = await fetch(apiDomain + path);
  return { status: res.status, body: await res.json() };
}
export async function payload(): Promise<Record<string, unknown>> {
  return Session.getAccessTokenPayloadSecurely();
}
export async function refresh(): Promise<boolean> {
  return Session.attemptRefreshingSession();
}
export async function signOut(): Promise<boolean> {
  await Session.signOut();
  return Session.doesSessionExist();
}
