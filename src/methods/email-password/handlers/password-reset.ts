import { defineEventHandler, setResponseHeader } from "h3";
import { resetPasswordWithToken } from "../password-reset.js";
import { readJsonBody } from "../../../http/body.js";
import type { HttpDeps } from "../../../http/deps.js";
import { parseFormFields } from "../../../http/form-fields.js";

/**
 * POST /user/password/reset (seed #7): {"method":"token","formFields":[{"id":"password",…}],"token"}.
 * `method` is ignored, as in the SuperTokens SDK. The answer never names the user.
 */
export const passwordReset = (deps: HttpDeps) =>
  defineEventHandler(async (event) => {
    const body = await readJsonBody(event, deps.ctx.config.bodyLimit);
    const { password } = parseFormFields(body, ["password"]);
    const r = await resetPasswordWithToken(deps.ctx, { token: body.token, password });
    setResponseHeader(event, "cache-control", "no-store");
    if (r.status === "OK") return { status: "OK" };
    return r;
  });
