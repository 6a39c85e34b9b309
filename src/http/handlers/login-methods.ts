import { defineEventHandler } from "h3";
import type { HttpDeps } from "../deps.js";

/**
 * GET /loginmethods: the SuperTokens multitenancy answer for the one tenant (FDI `GET
 * /loginmethods`), so the prebuilt UI shows the right buttons. Each sign-in method describes its
 * own part (Room.describe); `clientType` is accepted and ignored.
 */
export const loginMethods = (deps: HttpDeps) =>
  defineEventHandler(() => {
    const parts = deps.tables.describe.map((describe) => describe(deps.ctx));
    return {
      status: "OK",
      ...Object.assign({}, ...parts.map((p) => p.answer)),
      firstFactors: parts.flatMap((p) => p.firstFactors),
    };
  });
