import type { CoreContext } from "../../core/context.js";

export interface LoginMethods {
  emailPassword: boolean;
  providers: Array<{ id: string; name: string }>;
}

/** Which sign-in methods this server offers: email/password always, plus the configured providers. */
export function listLoginMethods(ctx: CoreContext): LoginMethods {
  return { emailPassword: true, providers: ctx.thirdParty.providers.map((p) => ({ id: p.id, name: p.name })) };
}
