import type { Config } from "../../config/types.js";
import type { FactorId } from "../../core/claims.js";
import type { PasswordlessMailKind } from "./mail.js";

/** SuperTokens' names of the flow types (the SDKs read `flowType` from /signinup/code). */
export type FlowType = "USER_INPUT_CODE" | "MAGIC_LINK" | "USER_INPUT_CODE_AND_MAGIC_LINK";

const flows: Record<Exclude<Config["passwordlessFlowType"], "off">, { flowType: FlowType; mail: PasswordlessMailKind; factors: FactorId[] }> = {
  code: { flowType: "USER_INPUT_CODE", mail: "passwordless_code", factors: ["otp-email"] },
  link: { flowType: "MAGIC_LINK", mail: "passwordless_link", factors: ["link-email"] },
  both: { flowType: "USER_INPUT_CODE_AND_MAGIC_LINK", mail: "passwordless_code_link", factors: ["otp-email", "link-email"] },
};

/** The configured flow: what /signinup/code answers, which mail goes out, which first factors loginmethods lists. Undefined when off. */
export function passwordlessFlow(config: Readonly<Config>) {
  return config.passwordlessFlowType === "off" ? undefined : flows[config.passwordlessFlowType];
}
