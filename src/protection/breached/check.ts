import type { Config } from "../../config/types.js";
import type { PasswordCheck } from "../../core/passwords.js";
import type { Clock } from "../../util/clock.js";
import type { Logger } from "../../util/logger.js";
import { words } from "../words.js";
import { isInOfflineList } from "./offline-list.js";
import { createRangeClient } from "./range.js";
import { createSignInCheck } from "./at-sign-in.js";

/**
 * The breached-password check every new password passes (core/passwords.ts checkNewPassword): the
 * shipped list first (no lookup for what it already knows), then, with --breached-passwords online,
 * the range API. The password is checked as typed (the breach corpora hold what people typed); the
 * shipped list, as the policy did, whatever its case.
 */
export function createBreachedCheck(config: Readonly<Config>, deps: { logger: Logger; clock: Clock }): PasswordCheck & { isBreached(password: string): Promise<boolean> } {
  const range = config.breachedPasswords === "online" ? createRangeClient(config, deps) : undefined;
  const isBreached = async (password: string): Promise<boolean> => {
    if (isInOfflineList(password)) return true;
    return range !== undefined && (await range.lookup(password)) === "breached";
  };
  return {
    isBreached,
    check: async (password) => ((await isBreached(password)) ? words.breached : null),
    atSignIn: createSignInCheck(isBreached),
  };
}
