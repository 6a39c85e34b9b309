import type { Config } from "../config/types.js";
import type { MailTable } from "../mail/kinds.js";
import type { TemplateOverrides } from "../mail/templates.js";
import type { Store } from "../store/database.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { WordsTable } from "../words/words.js";
import type { MetricsSink } from "../util/metrics.js";
import type { KeyRing } from "./signing-keys.js";
import type { DeferredWork } from "./deferred-work.js";
import type { ClaimProvider, Factor } from "./claims.js";
import type { ImportPart } from "./import-parts.js";
import type { LoginKind, MergePerson } from "./logins.js";
import type { PersonDeletion } from "./person-deletion.js";
import type { PurgeRule } from "./purge.js";
import type { PasswordCheck } from "./passwords.js";
import type { WayIn } from "./ways-in.js";
import type { PersonGate } from "./person-gates.js";
import type { SignInPolicy } from "./login-policy.js";
import type { SessionOpened } from "./session-opened.js";
import type { AccountOperations } from "./account-operations.js";
import type { Memberships } from "./memberships.js";

/**
 * What the rooms keep in the context (built once at start by the composition root, e.g. the
 * provider registry of the sign-in with providers). Empty here: each room adds its own field by declaration
 * merging (`declare module ".../core/context.js" { interface RoomState { ... } }`), so the kernel
 * never names a room.
 */
export interface RoomState {}

/** What every core function receives: no globals, so tests can swap the clock or the store. */
export interface CoreContext extends RoomState {
  config: Readonly<Config>;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** A hash at the current cost, verified against when an account does not exist. */
  dummyHash: Promise<string>;
  /** Called right after a commit that queued mail, so the outbox worker sends it at once. */
  outboxNotify?: () => void;
  /** The kinds of mail (the kernel's and the rooms', Room.mail) and their actions. */
  mail: MailTable;
  /** Operator overrides of the mail templates (config.mailTemplatesDir), loaded once at start. */
  mailTemplates?: TemplateOverrides;
  /** Every sentence a person reads, per locale: the rooms' catalogues and the operator's overrides (words/). */
  words: WordsTable;
  /** Cached signing keys (JWT signing, verification, JWKS). */
  keys: KeyRing;
  /** Jobs run after the HTTP answer (drained before the store closes), see deferred-work.ts. */
  deferred: DeferredWork;
  /** Where counters go (rate-limit refusals, sign-ins…); a no-op sink when metrics are off. */
  metrics: MetricsSink;
  /** The claims the rooms add to every access token (checked once by checkClaimProviders). */
  claims: readonly ClaimProvider[];
  /** The factors the rooms provide (Room.factors), in the rooms' order (checked once by checkFactors). */
  factors: readonly Factor[];
  /** The kinds of login the sign-in methods declare (Room.logins), in the rooms' order. */
  logins: readonly LoginKind[];
  /** The rooms' parts of an import record (Room.importer), in the rooms' order. */
  importParts: readonly ImportPart[];
  /** How each room moves what a person owns when two people are joined (Room.mergePerson). */
  mergePerson: readonly MergePerson[];
  /** What the rooms say before a person is deleted (Room.personDeletion): refusals, and what goes with them. */
  personDeletion: readonly PersonDeletion[];
  /** What lets someone act as a person, declared by the rooms (Room.waysIn): every security event ends them all (core/ways-in.ts). */
  waysIn: readonly WayIn[];
  /** The rooms' purge rules (Room.purge), run after the kernel's by the purge job. */
  purge: readonly PurgeRule[];
  /** The rooms' checks of every new password (Room.passwordCheck), after the kernel's policy. */
  passwordChecks: readonly PasswordCheck[];
  /** The rooms' gates that may shut a person out (Room.personGate: a ban), asked at every sign-in and session use. */
  personGates: readonly PersonGate[];
  /** The rooms' sign-in policies (Room.signInPolicy: SSO required for a domain), asked whenever a session opens. */
  signInPolicies: readonly SignInPolicy[];
  /** The rooms' work when a session opens (Room.sessionOpened), in its transaction. */
  sessionOpened: readonly SessionOpened[];
  /** What the sign-in methods offer other rooms to do to accounts (Room.accounts), one room per kind: reached through accountsOf. */
  accounts: Readonly<AccountOperations>;
  /** Organizations' members as the organizations room offers them (Room.memberships): reached through membershipsOf. */
  memberships?: Memberships;
}
