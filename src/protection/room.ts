import type { Room } from "../kernel/room.js";
import { breachedClaim, clearOnPasswordChange } from "./breached/at-sign-in.js";
import { createBreachedCheck } from "./breached/check.js";
import { captchaHeader, guardWithCaptcha } from "./captcha/guard.js";
import { protectionRoutes } from "./captcha/routes.js";
import { mailDnsCommand } from "./dkim/dns-command.js";
import { dkimKeyOf } from "./dkim/key.js";
import { protectionOpenapi } from "./openapi.js";
import { breachedAccountPart, captchaSources, protectionAssets, protectionHook, protectionStyles } from "./pages.js";
import { expiredSolutions } from "./purge.js";
import { protectionChecks, protectionSettings } from "./settings.js";

/**
 * Protections a hosted auth product sells, self-hosted (docs/security.md): a bot check on the
 * requests bots make (a proof of work of our own, or Turnstile or hCaptcha), a breached-password
 * check of every new password, and DKIM signing of every mail with the DNS records to publish.
 */
export const protectionRoom: Room = {
  id: "protection",
  settings: [protectionSettings],
  settingsChecks: protectionChecks,
  routes: protectionRoutes,
  openapi: protectionOpenapi,
  routeGuard: guardWithCaptcha,
  requestHeaders: (config) => (config.captcha === "off" ? [] : [captchaHeader(config)]),
  requestHook: protectionHook,
  accountPage: breachedAccountPart,
  pageSources: captchaSources,
  assets: protectionAssets,
  styles: protectionStyles,
  purge: [expiredSolutions],
  passwordCheck: (config, deps) => createBreachedCheck(config, deps),
  claims: (config) => (config.breachedPasswordsAtSignIn ? [breachedClaim] : []),
  eventHook: clearOnPasswordChange,
  smtpOptions: (config) => {
    const key = dkimKeyOf(config);
    return key && { dkim: { domainName: key.domain, keySelector: key.selector, privateKey: key.pem } };
  },
  commands: [mailDnsCommand],
};
