// A React app that signs users up and in with passkeys through the SuperTokens prebuilt UI against
// authsvc (docs/passkeys.md). Tested with supertokens-auth-react 0.51 and React 19. Passkeys need a
// secure context (https, or http://localhost) and authsvc's --webauthn-rp-id set to this site's domain.
import React from "react";
import { createRoot } from "react-dom/client";
import SuperTokens, { SuperTokensWrapper } from "supertokens-auth-react";
import WebAuthn from "supertokens-auth-react/recipe/webauthn";
import Session, { SessionAuth, signOut, useSessionContext } from "supertokens-auth-react/recipe/session";
import { canHandleRoute, getRoutingComponent } from "supertokens-auth-react/ui";
import { WebauthnPreBuiltUI } from "supertokens-auth-react/recipe/webauthn/prebuiltui";

SuperTokens.init({
  appInfo: {
    appName: "My app",
    apiDomain: "http://localhost:3567", // where `authsvc serve` listens (its --public-url)
    apiBasePath: "/auth",
    websiteDomain: "http://localhost:3000", // this app (authsvc's --website-url and a --webauthn-origins entry)
    websiteBasePath: "/auth",
  },
  recipeList: [
    WebAuthn.init(),
    Session.init({ tokenTransferMethod: "header" }), // or "cookie"
  ],
});

const prebuiltUIs = [WebauthnPreBuiltUI];

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
  // /auth/... shows the prebuilt passkey sign-up, sign-in and recovery screens.
  if (canHandleRoute(prebuiltUIs)) return getRoutingComponent(prebuiltUIs);
  return <SessionAuth><Home /></SessionAuth>;
}

createRoot(document.getElementById("root")!).render(<SuperTokensWrapper><App /></SuperTokensWrapper>);
