import type { Locale } from "../words/locales.js";
/**
 * Every setting of authsvc, resolved once at start: flag > environment (AUTHSVC_*) > config file
 * (--config FILE, JSON) > default. Validated with an error naming the setting and the bad value, then
 * frozen. This is the only module that reads process.env.
 */
export type Mode = "development" | "production";
export type SameSite = "auto" | "lax" | "strict" | "none";

/**
 * The kernel's settings; each room adds its own keys by declaration merging beside its rows
 * (`declare module ".../config/types.js" { interface Config { ... } }`), so this file names no room.
 */
export interface Config {
  mode: Mode;
  port: number;
  host: string;
  database: string;
  publicUrl: string;
  websiteUrl: string;
  /** Production: accept an http:// public URL (clients really reach authsvc over plain http). */
  allowHttpPublicUrl: boolean;
  corsOrigins: readonly string[];
  apiBasePath: string;
  websiteBasePath: string;
  secret: string | undefined;
  bcryptCost: number;
  passwordMinLength: number;
  accessTokenLifetimeMs: number;
  refreshTokenLifetimeMs: number;
  refreshGraceWindowMs: number;
  emailVerificationTokenLifetimeMs: number;
  passwordResetTokenLifetimeMs: number;
  emailVerificationRequiresSession: boolean;
  accountLinking: boolean;
  /** Second factor (docs/mfa.md): "optional" = each user chooses; "required" = everyone sets one up. */
  mfa: "optional" | "required";
  cookieSameSite: SameSite;
  cookieSecure: "auto" | "true" | "false";
  cookieDomain: string | undefined;
  brandPrefix: string;
  bodyLimit: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailCatcher: boolean;
  mailCatcherHost: string;
  mailCatcherPort: number;
  mailCatcherRetention: number;
  mailCatcherMaxAgeMs: number;
  mailTemplatesDir: string | undefined;
  shutdownTimeoutMs: number;
  /** The memory (MiB) the server may use: the default workers fit in it (config/worker-fit.ts). */
  memoryLimit: number;
  /** HTTP worker processes `serve` runs (1 = one process, as before). */
  workers: number;
  /** Threads that hash passwords, for the whole server (split among the workers). */
  hashThreads: number;
  sqliteSynchronous: "FULL" | "NORMAL";
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  // #8C session and token hardening
  sessionMaxLifetimeMs: number;
  sessionsPerUser: number;
  // Admin API (#12b)
  /** Bearer key of the admin API under /admin/v1; undefined = the admin API is off. */
  adminApiKey: string | undefined;
  // Operations (#12a): scheduled SQLite backups and the Prometheus endpoint.
  backupDir: string | undefined;
  backupEveryMs: number;
  backupKeep: number;
  metrics: boolean;
  metricsPort: number | undefined;
  metricsHost: string;
  // Hosted pages and development inbox (issue 11)
  hostedPages: boolean;
  pagesProductName: string;
  pagesLogoUrl: string | undefined;
  pagesRedirectPaths: readonly string[];
  // Words (issue 48): the locales the pages and mails are offered in, the default, the operator's overrides.
  locales: readonly Locale[];
  defaultLocale: Locale;
  wordsDir: string | undefined;
  // Rate limits (docs/security.md "Rate limits"). Budgets are "N/duration" text, or "off"; see parseLimitSpec.
  rateLimits: boolean;
  trustedProxies: readonly string[];
  limitSigninFailures: string;
  limitSigninFreeFailures: number;
  limitSigninMaxDelayMs: number;
  limitSigninIp: string;
  limitSignupIp: string;
  limitEmailExistsIp: string;
  limitRefreshIp: string;
  limitMailIp: string;
  limitMailCooldown: string;
  limitMailHourly: string;
  limitTokenIp: string;
  limitInvalidTokenIp: string;
  limitAdminKeyIp: string;
  // Admin dashboard (docs/admin-dashboard.md)
  adminSessionIdleMs: number;
  adminSessionMaxLifetimeMs: number;
  limitAdminSigninIp: string;
  limitAdminSigninEmail: string;
}

export type Source = "flag" | "env" | "file" | "default" | "derived";

export interface ResolvedConfig {
  config: Readonly<Config>;
  sources: Readonly<Record<keyof Config, Source>>;
  configFile: string | undefined;
}


export class ConfigError extends Error {
  override name = "ConfigError";
}

/** One setting as `authsvc config` and the dashboard show it (value already masked when secret). */
export interface ConfigRow { key: string; flag?: string; env: string; value: unknown; source: Source | undefined; doc: string; secret: boolean }
