import { describeSettings, orderSettings, resolveSettings, type ConfigInput, type Setting } from "./config/engine.js";
import { kernelChecks, kernelLateChecks, kernelSettings } from "./config/kernel-settings.js";
import type { Config, ConfigRow, ResolvedConfig } from "./config/types.js";
import { rooms } from "./rooms.js";
import { maskUrlPassword } from "./util/mask-url.js";

export { parseLimitSpec, type LimitSpec } from "./util/limit-spec.js";
export { fileKey, type ConfigInput } from "./config/engine.js";
export { ConfigError, type Config, type ConfigRow, type Mode, type ResolvedConfig, type SameSite, type Source } from "./config/types.js";

/**
 * Every setting of authsvc: the kernel's rows (config/kernel-settings.ts) with each room's blocks in
 * their documented places, resolved once at start by the engine (config/engine.ts): flag >
 * environment (AUTHSVC_*) > config file (--config FILE, JSON) > default, validated, frozen. This is
 * the only module that reads process.env. It sits at the composition root beside app.ts: the kernel
 * reads the Config type (config/types.ts), never this table.
 */
export const settings: readonly Setting[] = orderSettings(
  kernelSettings((key) => rooms.flatMap((r) => r.settingWords?.[key] ?? [])),
  rooms.flatMap((r) => r.settings ?? []),
);
/** The rate-limit budgets of development mode on a loopback address, by setting (config/limit-defaults.ts). */
export const localDevelopmentLimits: Readonly<Partial<Record<keyof Config, string>>> = Object.fromEntries(settings.flatMap((s) => (s.localDevelopment === undefined ? [] : [[s.key, s.localDevelopment]])));
const checks = [...kernelChecks, ...rooms.flatMap((r) => r.settingsChecks ?? []), ...kernelLateChecks];

/** Resolves, validates and freezes the configuration. Throws ConfigError naming the bad setting. */
export function resolveConfig(input: ConfigInput = {}): ResolvedConfig {
  return resolveSettings(settings, checks, input);
}

/**
 * Settings as `authsvc config` prints them: the key and value as the config file accepts them (so
 * the output can be pasted into the file: "accessTokenLifetime": "15m", never the internal
 * accessTokenLifetimeMs in milliseconds the file would refuse), secrets masked, and the source.
 */
export function describeConfig(resolved: ResolvedConfig): ConfigRow[] {
  return describeSettings(settings, resolved);
}

/** Replaces the password of a URL (smtp://user:pass@…, postgres://…) with ****. */
export const maskUrl = maskUrlPassword;

/**
 * The configuration tests use: development defaults with a fast hash and a silent log, and
 * production's rate-limit budgets (the limits tests check those, not the loopback development ones).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Tests start from an app with a frontend of its own (hosted pages off, mail links to :3000);
  // those about the hosted pages turn them on, and the quick start's defaults have tests of their own.
  const { config } = resolveConfig({ env: { AUTHSVC_WEBSITE_URL: "http://localhost:3000" } });
  const productionBudgets = Object.fromEntries(settings.filter((s) => s.key in localDevelopmentLimits).map((s) => [s.key, s.default({ ...config, mode: "production" })]));
  return { ...config, ...productionBudgets, bcryptCost: 4, logLevel: "silent", mailCatcher: false, ...overrides };
}

