// A React app that signs users in with the SuperTokens prebuilt UI against authsvc.
// Tested with supertokens-auth-react 0.51, supertokens-web-js 0.16 and React 19.
import React from "react";
import { createRoot } from "react-dom/client";
import SuperTokens, { SuperTokensWrapper } from "supertokens-auth-react";
import EmailPassword from "supertokens-auth-react/recipe/emailpassword";
import EmailVerification from "supertokens-auth-react/recipe/emailverification";
import ThirdParty from "supertokens-auth-react/recipe/thirdparty";
import Session, { SessionAuth, signOut, useSessionContext } from "supertokens-auth-react/recipe/session";
import { canHandleRoute, getRoutingComponent } from "supertokens-auth-react/ui";
import { EmailPasswordPreBuiltUI } from "supertokens-auth-react/recipe/emailpassword/prebuiltui";
import { EmailVerificationPreBuiltUI } from "supertokens-auth-react/recipe/emailverification/prebuiltui";
import { ThirdPartyPreBuiltUI } from "supertokens-auth-react/recipe/thirdparty/prebuiltui";

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
      // The SDK's own password rule (a letter and a number) differs from authsvc's (length, not a
      // common or breached password): let the server decide, the form shows its message.
      signInAndUpFeature: { signUpForm: { formFields: [{ id: "password", label: "Password", validate: async () => undefined }] } },
    }),
    EmailVerification.init({ mode: "REQUIRED" }),
    // Only with a provider in authsvc's "providers" setting (its thirdPartyId is the id; the name is the
    // button's label). Without one the button fails: leave out this line and ThirdPartyPreBuiltUI.
    ThirdParty.init({ signInAndUpFeature: { providers: [{ id: "oidc", name: "My OIDC provider" }] } }),
    Session.init({ tokenTransferMethod: "cookie" }), // or "header"
  ],
});

const prebuiltUIs = [EmailPasswordPreBuiltUI, EmailVerificationPreBuiltUI, ThirdPartyPreBuiltUI];

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
  // /auth/... shows the prebuilt sign-in, verify-email and reset-password screens.
  if (canHandleRoute(prebuiltUIs)) return getRoutingComponent(prebuiltUIs);
  // Everything else needs a session with a verified email (EmailVerification mode REQUIRED).
  return <SessionAuth><Home /></SessionAuth>;
}

createRoot(document.getElementById("root")!).render(<SuperTokensWrapper><App /></SuperTokensWrapper>);
