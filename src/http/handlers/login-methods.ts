import { defineEventHandler } from "h3";
import { listLoginMethods } from "../../methods/third-party/login-methods.js";
import type { HttpDeps } from "../deps.js";

/**
 * GET /loginmethods: the SuperTokens multitenancy answer for the one tenant (FDI `GET
 * /loginmethods`), so the prebuilt UI shows the right buttons. `clientType` is accepted and ignored.
 */
export const loginMethods = (deps: HttpDeps) =>
  defineEventHandler(() => {
    const m = listLoginMethods(deps.ctx);
    const thirdParty = m.providers.length > 0;
    return {
      status: "OK",
      emailPassword: { enabled: m.emailPassword },
      thirdParty: { enabled: thirdParty, providers: m.providers },
      passwordless: { enabled: false },
      webauthn: { enabled: true },
      firstFactors: [...(m.emailPassword ? ["emailpassword"] : []), ...(thirdParty ? ["thirdparty"] : []), "webauthn"],
    };
  });
