import { readFileSync } from "node:fs";
import { formatDuration } from "../util/duration.js";
import { describeFsError } from "../util/fs-error.js";
import { maskUrlPassword } from "../util/mask-url.js";
import { suggestName } from "../util/suggest.js";
import { describeMistypedEnv } from "./env-check.js";
import type { Parser } from "./parsers.js";
import { ConfigError, type Config, type ConfigRow, type ResolvedConfig, type Source } from "./types.js";

/**
 * The settings engine: one row type for every setting (the kernel's and each room's), resolution
 * (flag > environment (AUTHSVC_*) > config file (--config FILE, JSON) > default), validation with an
 * error naming the setting and the bad value, and the masked view `authsvc config` prints. It knows
 * no setting by name: the tables come from config/kernel-settings.ts and the rooms.
 */
export interface Setting {
  key: keyof Config;
  flag?: string; // without the leading dashes; undefined = not settable by flag (secrets)
  env: string;
  parse: Parser;
  secret?: "all" | "url-password";
  doc: string;
  /** Default, possibly depending on settings resolved before it (order matters). */
  default: (c: Partial<Config>) => unknown;
  /** A rate-limit budget's value in development mode on a loopback address (config/limit-defaults.ts limitSetting). */
  localDevelopment?: string;
  /** A secret value that is a list of objects: only their secret fields are masked (providers, webhooks). */
  maskFields?: boolean;
}

/**
 * A room's rows, placed after the row `after` (so the table keeps one documented order), or just
 * before the row `before` (a block that follows other rooms' blocks without naming them), or at the
 * end; `helpGroup`: the heading `authsvc serve --help` lists their flags under (e.g. "Sign-in
 * methods"; src/cli/option-groups.ts has the kernel's headings), by default the one its rules give;
 * `helpGroupAfter`: the heading a heading of the rooms' own follows in the help (e.g. "Limits").
 */
export interface SettingsBlock { after?: keyof Config; before?: keyof Config; helpGroup?: string; helpGroupAfter?: string; rows: readonly Setting[] }

/** A check that spans settings (run after every one resolved); throws ConfigError. */
export type SettingsCheck = (c: Readonly<Config>, sources: Readonly<Record<keyof Config, Source>>) => void;

/**
 * The one table: the kernel's rows with each room's blocks placed after (or before) their anchor
 * row, in the rooms' order (a block may anchor on another room's row). A missing anchor or a key
 * declared twice is a programming error.
 */
export function orderSettings(kernel: readonly Setting[], blocks: readonly SettingsBlock[]): Setting[] {
  const out = [...kernel];
  let pending = [...blocks];
  while (pending.length) {
    const left = pending.filter((b) => {
      const anchor = b.after ?? b.before;
      const found = anchor === undefined ? out.length - 1 : out.findIndex((s) => s.key === anchor);
      if (found < 0) return true;
      const at = b.after === undefined && b.before !== undefined ? found - 1 : found;
      out.splice(at + 1, 0, ...b.rows);
      return false;
    });
    if (left.length === pending.length) throw new Error(`settings: no row ${String(left[0].after ?? left[0].before)} to place a block beside`);
    pending = left;
  }
  const seen = new Set<string>();
  for (const s of out) {
    if (seen.has(s.key)) throw new Error(`settings: ${s.key} is declared twice`);
    seen.add(s.key);
  }
  return out;
}

export interface ConfigInput {
  /** Flags as commander parsed them (camelCase keys of the flag names); undefined = not given. */
  flags?: Record<string, unknown>;
  /** Environment; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Path of a JSON config file; falls back to AUTHSVC_CONFIG. */
  configFile?: string;
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
/** A setting's key in the config file: its flag in camelCase, or its name when it has no flag. */
export const fileKey = (s: Setting): string => (s.flag ? camel(s.flag) : s.key);

/**
 * Resolves a settings table (flag > environment > config file > default), runs the checks that
 * span settings, and freezes the result. Throws ConfigError naming the bad setting.
 */
export function resolveSettings(settings: readonly Setting[], checks: readonly SettingsCheck[], input: ConfigInput = {}): ResolvedConfig {
  const env = input.env ?? process.env;
  const flags = { ...(input.flags ?? {}) };
  if (flags.production === true) {
    if (flags.mode !== undefined && flags.mode !== "production") throw new ConfigError("--production conflicts with --mode " + String(flags.mode));
    flags.mode = "production";
  }
  const configFile = input.configFile ?? (typeof flags.config === "string" ? flags.config : undefined) ?? env.AUTHSVC_CONFIG;
  let file: Record<string, unknown> = {};
  if (configFile) {
    let text: string;
    try { text = readFileSync(configFile, "utf8"); } catch (e) {
      throw new ConfigError(`cannot read config file ${configFile}: ${describeFsError(e)}; check --config (AUTHSVC_CONFIG)`);
    }
    try { file = JSON.parse(text); } catch (e) {
      throw new ConfigError(`config file ${configFile} is not valid JSON: ${(e as Error).message}`);
    }
    if (!file || typeof file !== "object" || Array.isArray(file)) throw new ConfigError(`config file ${configFile} must hold a JSON object`);
    // File keys are the camelCase flag names ("accessTokenLifetime": "15m"), not the internal
    // field names: "accessTokenLifetimeMs": 900000 would silently mean 900000 seconds.
    const known = settings.map(fileKey);
    for (const k of Object.keys(file)) if (!known.includes(k)) throw new ConfigError(describeUnknownKey(settings, configFile, k, known));
  }

  const mistyped = describeMistypedEnv(env, [...settings.map((s) => s.env), "AUTHSVC_CONFIG"]);
  if (mistyped) throw new ConfigError(mistyped);

  const config: Partial<Config> = {};
  const sources = {} as Record<keyof Config, Source>;
  for (const s of settings) {
    const flagKey = s.flag ? camel(s.flag) : undefined;
    let raw: unknown;
    let source: Source;
    let where: string;
    if (flagKey && flags[flagKey] !== undefined) { raw = flags[flagKey]; source = "flag"; where = `--${s.flag}`; }
    else if (env[s.env] !== undefined && env[s.env] !== "") { raw = env[s.env]; source = "env"; where = `${s.env} (environment)`; }
    else if (file[fileKey(s)] !== undefined) { raw = file[fileKey(s)]; source = "file"; where = `"${fileKey(s)}" in ${configFile}`; }
    else { (config as Record<string, unknown>)[s.key] = s.default(config); sources[s.key] = "default"; continue; }
    try {
      (config as Record<string, unknown>)[s.key] = s.parse(raw);
    } catch (why) {
      if (typeof why !== "string") throw why;
      const shown = s.secret === "all" ? "(hidden)" : JSON.stringify(typeof raw === "string" && s.secret ? maskUrlPassword(raw) : raw);
      throw new ConfigError(`invalid value for ${where}: ${shown}: ${why}`);
    }
    sources[s.key] = source;
  }
  const c = config as Config;
  for (const check of checks) check(c, sources);
  deepFreeze(c);
  return Object.freeze({ config: c, sources: Object.freeze(sources), configFile });
}

/** An unknown config-file key, with the setting it most likely meant (internal names included: "accessTokenLifetimeMs"). */
function describeUnknownKey(settings: readonly Setting[], configFile: string, key: string, known: readonly string[]): string {
  const byInternalName = settings.find((s) => s.key === key || `${s.key}Ms` === key);
  const guess = byInternalName ? fileKey(byInternalName) : suggestName(key, known);
  const hint = guess ? `; did you mean "${guess}"?` : "; `authsvc config` lists the keys the file accepts";
  return `config file ${configFile}: unknown setting "${key}"${hint}`;
}


/**
 * Settings as `authsvc config` prints them: the key and value as the config file accepts them (so
 * the output can be pasted into the file: "accessTokenLifetime": "15m", never the internal
 * accessTokenLifetimeMs in milliseconds the file would refuse), secrets masked, and the source.
 */
export function describeSettings(settings: readonly Setting[], resolved: ResolvedConfig): ConfigRow[] {
  return settings.map((s) => {
    const v = resolved.config[s.key];
    // Every duration setting is named …Ms inside and read from the file as "15m" or seconds.
    let value: unknown = s.key.endsWith("Ms") && typeof v === "number" ? formatDuration(v) : v;
    if (s.secret === "all" && v !== undefined && !(Array.isArray(v) && v.length === 0)) value = s.maskFields ? maskProviders(v) : "********";
    else if (s.secret === "url-password" && typeof v === "string") value = maskUrlPassword(v);
    return { key: fileKey(s), flag: s.flag ? `--${s.flag}` : undefined, env: s.env, value, source: resolved.sources[s.key] as Source | undefined, doc: s.doc, secret: s.secret !== undefined };
  });
}

function maskProviders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskProviders);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, /secret|privatekey/i.test(k) ? "********" : maskProviders(v)]));
  }
  return value;
}

function deepFreeze(o: unknown): void {
  if (o && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
}

