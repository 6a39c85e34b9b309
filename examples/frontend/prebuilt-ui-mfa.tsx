// The SuperTokens prebuilt UI with a second factor (TOTP) against authsvc: email/password first,
// then an authenticator app. Turn it on in authsvc with --mfa required (everyone), or let users
// set it up themselves (docs/mfa.md). Tested with supertokens-auth-react 0.51 and React 19.
import React from "react";
import { createRoot } from "react-dom/client";
import SuperTokens, { SuperTokensWrapper } from "supertokens-auth-react";
import EmailPassword from "supertokens-auth-react/recipe/emailpassword";
import MultiFactorAuth from "supertokens-auth-react/recipe/multifactorauth";
import TOTP from "supertokens-auth-react/recipe/totp";
import Session, { SessionAuth, signOut, useSessionContext } from "supertokens-auth-react/recipe/session";
import { canHandleRoute, getRoutingComponent } from "supertokens-auth-react/ui";
import { EmailPasswordPreBuiltUI } from "supertokens-auth-react/recipe/emailpassword/prebuiltui";
import { MultiFactorAuthPreBuiltUI } from "supertokens-auth-react/recipe/multifactorauth/prebuiltui";
import { TOTPPreBuiltUI } from "supertokens-auth-react/recipe/totp/prebuiltui";

SuperTokens.init({
  appInfo: {
    appName: "My app",
    apiDomain: "http://localhost:3567", // where `authsvc serve` listens (its --public-url)
    apiBasePath: "/auth",
    websiteDomain: "http://localhost:3000", // this app (authsvc's --website-url)
    websiteBasePath: "/auth",
  },
  recipeList: [
    EmailPassword.init({
      signInAndUpFeature: { signUpForm: { formFields: [{ id: "password", label: "Password", validate: async () => undefined }] } },
    }),
    // The first factor is the password; the st-mfa claim in the access token says when TOTP is due.
    MultiFactorAuth.init({ firstFactors: ["emailpassword"] }),
    TOTP.init(),
    Session.init({ tokenTransferMethod: "cookie" }), // or "header"
  ],
});

const prebuiltUIs = [EmailPasswordPreBuiltUI, MultiFactorAuthPreBuiltUI, TOTPPreBuiltUI];

function Home() {
  const session = useSessionContext();
  if (session.loading) return null;
  return (
    <main>
      <p id="user-id">{session.userId}</p>
      <button id="sign-out" onClick={async () => { await signOut(); window.location.href = "/auth"; }}>Sign out</button>
    </main>
  );
}

function App() {
  if (canHandleRoute(prebuiltUIs)) return getRoutingComponent(prebuiltUIs);
  // SessionAuth checks st-mfa.v: a session without its second factor is sent to /auth/mfa.
  return <SessionAuth><Home /></SessionAuth>;
}

createRoot(document.getElementById("root")!).render(<SuperTokensWrapper><App /></SuperTokensWrapper>);
