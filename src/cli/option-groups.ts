import type { Option } from "commander";
import { rooms } from "../rooms.js";

/**
 * The headings `authsvc serve --help` lists its ~90 settings under, so a reader finds the mail or
 * the session settings without scrolling through all of them, in their order. A room's settings
 * block names its heading (SettingsBlock.helpGroup, without the colon); the kernel's flags follow
 * the rules below, the first that matches wins, and a flag neither names falls under "Server"
 * (the general settings).
 */
const HEADINGS = ["Database:", "Mail:", "Sessions:", "Sign-in methods:", "Accounts and metadata:", "Hosted pages:", "Limits:", "Webhooks:", "Operations:"];
const RULES: ReadonlyArray<readonly [heading: string, match: RegExp]> = [
  ["Database:", /^(database|sqlite-|backup-)/],
  ["Mail:", /^(smtp-|mail-)/],
  ["Sessions:", /^(access-token-|refresh-token-|refresh-grace-|session-|sessions-|cookie-|admin-session-)/],
  ["Sign-in methods:", /^(bcrypt-|password-|email-verification-|mfa$|account-linking$)/],
  ["Hosted pages:", /^(hosted-pages$|pages-)/],
  ["Limits:", /^(rate-limits$|trusted-proxies$|limit-|body-limit$)/],
  ["Operations:", /^(log-level$|metrics|workers$|hash-threads$|shutdown-)/],
];

let declared: Map<string, string> | undefined;
/** The headings the rooms' settings blocks declare, by flag (built on first use). */
function declaredHeadings(): Map<string, string> {
  declared ??= new Map(rooms.flatMap((r) => r.settings ?? []).flatMap((b) =>
    b.helpGroup ? b.rows.flatMap((s) => (s.flag ? [[s.flag, `${b.helpGroup}:`] as const] : [])) : []));
  return declared;
}

/** The help heading of a long flag (without its leading `--` or `--no-`). */
export function helpGroupOf(flag: string): string {
  const heading = declaredHeadings().get(flag) ?? RULES.find(([, match]) => match.test(flag))?.[0] ?? "Server:";
  if (!ORDER.includes(heading)) throw new Error(`settings: no help heading ${heading} (src/cli/option-groups.ts)`);
  return heading;
}

// "Options:" is commander's heading for the command's own options (and --help): they come first.
const ORDER = ["Options:", "Server:", ...HEADINGS];

/**
 * Puts a command's options in heading order (stable within a heading): commander shows the
 * headings in the order their first option was added, and a command's own options come first.
 */
export function sortOptionsByGroup(options: Option[]): void {
  const rank = (o: Option) => ORDER.indexOf(o.helpGroupHeading ?? "Options:");
  options.sort((a, b) => rank(a) - rank(b));
}
