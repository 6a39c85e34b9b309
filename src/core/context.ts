import type { Config } from "../config.js";
import type { Store } from "../store/database.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { KeyRing } from "./signing-keys.js";

/** What every core function receives: no globals, so tests can swap the clock or the store. */
export interface CoreContext {
  config: Readonly<Config>;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** A hash at the current cost, verified against when an account does not exist. */
  dummyHash: Promise<string>;
  /** Cached signing keys (JWT signing, verification, JWKS). */
  keys: KeyRing;
}
