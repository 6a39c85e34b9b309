import { ConfigError } from "../../config/types.js";
import { SIGN_IN_NOT_ALLOWED } from "./refusals.js";
import type { SignInMethod } from "../../kernel/room.js";
import { thirdPartyMail } from "./mail.js";
import { providersDescribed, thirdPartyArea } from "./openapi.js";
import { createThirdPartyRegistry } from "./registry.js";
import { thirdPartyRoutes } from "./routes.js";
import { checkProviders, thirdPartyLimitSettings, thirdPartySettings } from "./settings.js";
import { providerLogins } from "./logins.js";
import { providerImport } from "./import.js";
import { providerIdentities } from "./sign-in-up.js";
import { callbackPage, providerSignIn } from "./pages.js";
import callbackJs from "./pages/callback.js?raw";
import providersJs from "./pages/providers.js?raw";
import { hostedPageRoutes } from "../../http/pages/route.js";
import { thirdPartyWords } from "./words/index.js";

/** Sign-in with a third-party provider (OAuth 2 / OpenID Connect): the room's declaration. */
export const thirdPartyRoom: SignInMethod = {
  id: "thirdparty",
  factors: [{ id: "thirdparty", amr: "fed", refusal: { status: "SIGN_IN_UP_NOT_ALLOWED", reason: SIGN_IN_NOT_ALLOWED } }],
  logins: providerLogins,
  importer: providerImport,
  // What other rooms (the CDI, a SAML connection) may do with provider identities.
  accounts: { providerIdentities },
  settings: [thirdPartySettings, thirdPartyLimitSettings],
  settingsChecks: [checkProviders],
  routes: thirdPartyRoutes,
  openapi: thirdPartyArea,
  mail: thirdPartyMail,
  words: thirdPartyWords,
  // Where a provider sends the browser back.
  pages: (c) => hostedPageRoutes(c, { "/callback/:thirdPartyId": callbackPage }),
  assets: { "callback.js": callbackJs, "providers.js": providersJs },
  signIn: providerSignIn,
  // Providers are checked before anything opens, so a typo stops the start with a clear message.
  init: (config) => {
    try { return { thirdParty: createThirdPartyRegistry(config.providers, config.mode) }; } catch (err) {
      throw new ConfigError(`invalid value for providers: ${(err as Error).message}`);
    }
  },
  describe: (ctx) => {
    const providers = ctx.thirdParty.providers.map((p) => ({ id: p.id, name: p.name }));
    const enabled = providers.length > 0;
    return { answer: { thirdParty: { enabled, providers } }, firstFactors: enabled ? ["thirdparty"] : [] };
  },
  describeSchema: providersDescribed,
};
