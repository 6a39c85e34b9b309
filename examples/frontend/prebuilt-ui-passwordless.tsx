// A React app that signs users in with a code or a magic link by email (the SuperTokens
// passwordless prebuilt UI) against authsvc. Tested with supertokens-auth-react 0.51 and React 19.
import React from "react";
import { createRoot } from "react-dom/client";
import SuperTokens, { SuperTokensWrapper } from "supertokens-auth-react";
import Passwordless from "supertokens-auth-react/recipe/passwordless";
import Session, { SessionAuth, signOut, useSessionContext } from "supertokens-auth-react/recipe/session";
import { canHandleRoute, getRoutingComponent } from "supertokens-auth-react/ui";
import { PasswordlessPreBuiltUI } from "supertokens-auth-react/recipe/passwordless/prebuiltui";

SuperTokens.init({
  appInfo: {
    appName: "My app",
    apiDomain: "http://localhost:3567", // where `authsvc serve` listens (its --public-url)
    apiBasePath: "/auth",
    websiteDomain: "http://localhost:3000", // this app (authsvc's --website-url): mail links open its /auth/verify
    websiteBasePath: "/auth",
  },
  recipeList: [
    // The flow type (code, link or both: USER_INPUT_CODE_AND_MAGIC_LINK) comes from the server,
    // authsvc's passwordlessFlowType setting; the UI shows the code field when the mail has a code.
    Passwordless.init({ contactMethod: "EMAIL" }),
    Session.init({ tokenTransferMethod: "cookie" }), // or "header"
  ],
});

const prebuiltUIs = [PasswordlessPreBuiltUI];

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
  // /auth shows the sign-in form, /auth/verify the landing page of the mailed link.
  if (canHandleRoute(prebuiltUIs)) return getRoutingComponent(prebuiltUIs);
  return <SessionAuth><Home /></SessionAuth>;
}

createRoot(document.getElementById("root")!).render(<SuperTokensWrapper><App /></SuperTokensWrapper>);
