import { defineEventHandler } from "h3";
import { listLoginMethods } from "../../methods/third-party/login-methods.js";
import { passwordlessFlow } from "../../methods/passwordless/flow-type.js";
import type { HttpDeps } from "../deps.js";

/**
 * GET /loginmethods: the SuperTokens multitenancy answer for the one tenant (FDI `GET
 * /loginmethods`), so the prebuilt UI shows the right buttons. `clientType` is accepted and ignored.
 */
export const loginMethods = (deps: HttpDeps) =>
  defineEventHandler(() => {
    const m = listLoginMethods(deps.ctx);
    const thirdParty = m.providers.length > 0;
    const passwordless = passwordlessFlow(deps.ctx.config);
    return {
      status: "OK",
      emailPassword: { enabled: m.emailPassword },
      thirdParty: { enabled: thirdParty, providers: m.providers },
      passwordless: { enabled: passwordless !== undefined },
      webauthn: { enabled: true },
      firstFactors: [...(m.emailPassword ? ["emailpassword"] : []), ...(thirdParty ? ["thirdparty"] : []), ...(passwordless?.factors ?? []), "webauthn"],
    };
  });
