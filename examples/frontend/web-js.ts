// Your own sign-in screens with supertokens-web-js (no React, no prebuilt UI) against authsvc.
// Tested with supertokens-web-js 0.16.
import SuperTokens from "supertokens-web-js";
import Session from "supertokens-web-js/recipe/session";
import EmailPassword from "supertokens-web-js/recipe/emailpassword";
import EmailVerification from "supertokens-web-js/recipe/emailverification";

SuperTokens.init({
  appInfo: { appName: "My app", apiDomain: "http://localhost:3567", apiBasePath: "/auth" },
  recipeList: [Session.init({ tokenTransferMethod: "cookie" }), EmailPassword.init(), EmailVerification.init()],
});

/** Sign-up form: returns the server's message per field, or null when the user is signed in. */
export async function signUp(email: string, password: string): Promise<Record<string, string> | null> {
  const r = await EmailPassword.signUp({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
  if (r.status === "FIELD_ERROR") return Object.fromEntries(r.formFields.map((f) => [f.id, f.error]));
  if (r.status !== "OK") return { "": "Sign-up is not allowed." };
  await EmailVerification.sendVerificationEmail(); // the mail links to /auth/verify-email?token=…
  return null;
}

/** The page at /auth/verify-email: the SDK reads the token from the address. */
export async function verifyEmailFromLink(): Promise<boolean> {
  return (await EmailVerification.verifyEmail()).status === "OK";
}

export async function signIn(email: string, password: string): Promise<boolean> {
  const r = await EmailPassword.signIn({ formFields: [{ id: "email", value: email }, { id: "password", value: password }] });
  return r.status === "OK";
}

/** Asks authsvc for the password-reset mail (always "OK": no one learns whether the address has an account). */
export async function sendResetMail(email: string): Promise<void> {
  await EmailPassword.sendPasswordResetEmail({ formFields: [{ id: "email", value: email }] });
}

/** The page at /auth/reset-password: the SDK reads the token from the address. */
export async function resetPasswordFromLink(newPassword: string): Promise<boolean> {
  return (await EmailPassword.submitNewPassword({ formFields: [{ id: "password", value: newPassword }] })).status === "OK";
}

/** Who is signed in (refreshing the session first when its access token has expired), or null. */
export async function currentUserId(): Promise<string | null> {
  return (await Session.doesSessionExist()) ? Session.getUserId() : null;
}

export async function signOut(): Promise<void> {
  await Session.signOut();
}
