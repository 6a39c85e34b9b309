import type { Option } from "commander";

/**
 * The headings `authsvc serve --help` lists its ~90 settings under, so a reader finds the mail or
 * the session settings without scrolling through all of them. Keyed by flag name; the first rule
 * that matches wins, and a flag no rule names falls under "Server" (the general settings).
 */
const GROUPS: ReadonlyArray<readonly [heading: string, match: RegExp]> = [
  ["Database:", /^(database|sqlite-|backup-)/],
  ["Mail:", /^(smtp-|mail-)/],
  ["Sessions:", /^(access-token-|refresh-token-|refresh-grace-|session-|sessions-|cookie-|admin-session-)/],
  ["Sign-in methods:", /^(bcrypt-|password-|email-verification-|mfa$|account-linking$|passwordless-|webauthn-)/],
  ["Accounts and metadata:", /^(metadata-|account-deletion-)/],
  ["Hosted pages:", /^(hosted-pages$|pages-)/],
  ["Limits:", /^(rate-limits$|trusted-proxies$|limit-|body-limit$)/],
  ["Webhooks:", /^webhook-/],
  ["Operations:", /^(log-level$|metrics|workers$|hash-threads$|shutdown-)/],
];

/** The help heading of a long flag (without its leading `--` or `--no-`). */
export function helpGroupOf(flag: string): string {
  return GROUPS.find(([, match]) => match.test(flag))?.[0] ?? "Server:";
}


// "Options:" is commander's heading for the command's own options (and --help): they come first.
const ORDER = ["Options:", "Server:", ...GROUPS.map(([heading]) => heading)];

/**
 * Puts a command's options in heading order (stable within a heading): commander shows the
 * headings in the order their first option was added, and a command's own options come first.
 */
export function sortOptionsByGroup(options: Option[]): void {
  const rank = (o: Option) => ORDER.indexOf(o.helpGroupHeading ?? "Options:");
  options.sort((a, b) => rank(a) - rank(b));
}
