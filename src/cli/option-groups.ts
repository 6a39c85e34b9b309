import type { Option } from "commander";
import { rooms } from "../rooms.js";

/**
 * The headings `authsvc serve --help` lists its ~90 settings under, so a reader finds the mail or
 * the session settings without scrolling through all of them, in their order. A room's settings
 * block names its heading (SettingsBlock.helpGroup, without the colon), and places a heading the
 * kernel does not have after one it names (helpGroupAfter); the kernel's flags follow the rules
 * below, the first that matches wins, and a flag neither names falls under "Server" (the general
 * settings).
 */
const HEADINGS = ["Database:", "Mail:", "Sessions:", "Sign-in methods:", "Hosted pages:", "Limits:", "Operations:"];
const RULES: ReadonlyArray<readonly [heading: string, match: RegExp]> = [
  ["Database:", /^(database|sqlite-|backup-)/],
  ["Mail:", /^(smtp-|mail-)/],
  ["Sessions:", /^(access-token-|refresh-token-|refresh-grace-|session-|sessions-|cookie-|admin-session-)/],
  ["Sign-in methods:", /^(bcrypt-|password-|email-verification-|mfa$|account-linking$)/],
  ["Hosted pages:", /^(hosted-pages$|pages-)/],
  ["Limits:", /^(rate-limits$|trusted-proxies$|limit-|body-limit$)/],
  ["Operations:", /^(log-level$|metrics|memory-limit$|workers$|hash-threads$|shutdown-)/],
];

let declared: { byFlag: Map<string, string>; order: string[] } | undefined;
/**
 * The headings the rooms' settings blocks declare, by flag, and every heading in order: "Options:"
 * (commander's heading for the command's own options and --help: they come first), "Server:",
 * then the kernel's with each room's own right after the one it names, in the rooms' order.
 * Built on first use.
 */
function declaredHeadings(): { byFlag: Map<string, string>; order: string[] } {
  if (declared) return declared;
  const blocks = rooms.flatMap((r) => r.settings ?? []).filter((b) => b.helpGroup);
  const order = ["Options:", "Server:", ...HEADINGS];
  const placed = new Map<string, string>();
  for (const b of blocks) {
    const heading = `${b.helpGroup}:`;
    if (!b.helpGroupAfter) continue;
    const after = `${b.helpGroupAfter}:`;
    if (placed.has(heading) ? placed.get(heading) !== after : order.includes(heading)) throw new Error(`settings: help heading ${heading} is placed twice (src/cli/option-groups.ts)`);
    if (placed.has(heading)) continue;
    let at = order.indexOf(after);
    if (at < 0) throw new Error(`settings: no help heading ${after} to place ${heading} after (src/cli/option-groups.ts)`);
    while (placed.get(order[at + 1]) === after) at++;
    order.splice(at + 1, 0, heading);
    placed.set(heading, after);
  }
  const byFlag = new Map(blocks.flatMap((b) => b.rows.flatMap((s) => (s.flag ? [[s.flag, `${b.helpGroup}:`] as const] : []))));
  declared = { byFlag, order };
  return declared;
}

/** The help heading of a long flag (without its leading `--` or `--no-`). */
export function helpGroupOf(flag: string): string {
  const { byFlag, order } = declaredHeadings();
  const heading = byFlag.get(flag) ?? RULES.find(([, match]) => match.test(flag))?.[0] ?? "Server:";
  if (!order.includes(heading)) throw new Error(`settings: no help heading ${heading} (src/cli/option-groups.ts)`);
  return heading;
}

/**
 * Puts a command's options in heading order (stable within a heading): commander shows the
 * headings in the order their first option was added, and a command's own options come first.
 */
export function sortOptionsByGroup(options: Option[]): void {
  const { order } = declaredHeadings();
  const rank = (o: Option) => order.indexOf(o.helpGroupHeading ?? "Options:");
  options.sort((a, b) => rank(a) - rank(b));
}
