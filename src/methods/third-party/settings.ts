import type { SettingsBlock, SettingsCheck } from "../../config/engine.js";
import { limitSetting } from "../../config/limit-defaults.js";
import { fail, type Parser } from "../../config/parsers.js";
import { ConfigError } from "../../config/types.js";
import { normaliseProviders } from "./provider-config.js";

export interface ProviderConfig {
  /** e.g. "google", "github", "my-oidc" */
  thirdPartyId: string;
  [key: string]: unknown;
}

declare module "../../config/types.js" {
  interface Config {
    providers: readonly ProviderConfig[];
    limitSigninupIp: string;
  }
}

const providers: Parser = (v) => {
  let arr = v;
  if (typeof v === "string") {
    try { arr = JSON.parse(v); } catch { return fail("expected a JSON array of provider objects"); }
  }
  if (!Array.isArray(arr)) return fail("expected a JSON array of provider objects");
  for (const p of arr) {
    if (!p || typeof p !== "object" || typeof (p as ProviderConfig).thirdPartyId !== "string" || !/^[a-z0-9-]+$/i.test((p as ProviderConfig).thirdPartyId)) {
      fail("every provider needs a thirdPartyId made of letters, digits and dashes");
    }
  }
  const ids = arr.map((p: ProviderConfig) => p.thirdPartyId);
  if (new Set(ids).size !== ids.length) fail("thirdPartyId values must be unique");
  return arr;
};

/** Third-party sign-in's setting: the providers (config file or environment only; secrets inside). */
export const thirdPartySettings: SettingsBlock = { after: "mailTemplatesDir", rows: [
  { key: "providers", env: "AUTHSVC_PROVIDERS", parse: providers, secret: "all", maskFields: true, default: () => [], doc: "third-party providers (JSON array; config file or env)" },
] };

/** The budget of its sign-in route, in the rate-limit rows after the session refreshes' (docs/security.md "Rate limits"). */
export const thirdPartyLimitSettings: SettingsBlock = { after: "limitRefreshIp", rows: [
  limitSetting("limitSigninupIp", "signinup-ip", "60/15m", "third-party sign-ins (POST /signinup) per client IP", { dev: "600/15m" }),
] };

/** Every provider must be complete for this mode (issuer, client, keys), checked before anything opens. */
export const checkProviders: SettingsCheck = (c, sources) => {
  try { normaliseProviders(c.providers, c.mode); } catch (err) {
    throw new ConfigError(`invalid value for providers (${sources.providers}): ${(err as Error).message}`);
  }
};
