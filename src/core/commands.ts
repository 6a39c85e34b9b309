import type { Config } from "../config/types.js";
import type { CoreContext } from "./context.js";
import type { UserView } from "./users.js";

/**
 * An operator command a room declares (Room.commands): `authsvc passkeys list`, `authsvc users mfa
 * reset`. The CLI sits above the rooms, so a room says what the command is (name, help, arguments,
 * options, what it does) in these neutral terms and src/cli turns each into a commander command
 * with the house's flags (--json, the settings, --create) and its exit codes. A leaf: types and one error class.
 */
export interface CommandSpec {
  name: string;
  description: string;
  /** A kernel command it goes under (e.g. "users"), or another room's group (`orgs`); absent: a command of its own (`authsvc <name>`). */
  under?: string;
  /** Where a command of its own is listed in `authsvc --help`: right after this one (an ordering hint). */
  after?: string;
  /** Its subcommands: a group (`passkeys list | remove`) has these and no action. */
  commands?: readonly CommandSpec[];
  /**
   * How the house's flags are laid out: "admin" (like `users list`): --json, the common settings and
   * --create first, then its own; "own" (like `reset-password`): its own, then the settings and --create;
   * "bare" (like `admin-key`): its own alone, for a command that opens no database; "settings" (like
   * `mail dns`): --json and the settings, for one that reads them (CommandRun.config) and opens no database.
   */
  layout?: "admin" | "own" | "bare" | "settings";
  /** The user it acts on, as the first argument (email or id), and the deprecated options that still name one. */
  user?: { deprecated: ReadonlyArray<"user" | "email"> };
  /** Its positional arguments, e.g. "<email-or-id>" (after the user's, if any); the last may be variadic ("[permissions...]"). */
  arguments?: ReadonlyArray<{ name: string; description?: string }>;
  options?: readonly CommandOption[];
  action?(run: CommandRun): Promise<void>;
}

/**
 * A way `authsvc users create <email>` (and `create-user`) makes a user, declared by a sign-in
 * method (Room.userCreation): its options, its phrase of the help ("create a user: " and the
 * phrases joined by ", or "), and when it applies: the first whose `when` holds for the flags
 * creates, else the one without `when`.
 */
export interface UserCreationSpec {
  summary: string;
  options: readonly CommandOption[];
  when?(flags: Readonly<Record<string, unknown>>): boolean;
  create(email: string, run: CommandRun): Promise<void>;
}

/**
 * An option: its flags as commander spells them ("--id <credential-id>"), its help line, whether it
 * must be given, and the value it has when not given (the help shows it: `(default: "member")`).
 */
export interface CommandOption {
  flags: string;
  description: string;
  required?: boolean;
  default?: string;
}

/** What a command's action is given: its input, where it writes, and the app to open. */
export interface CommandRun {
  /** The user named (the first argument or a deprecated option), when the command declares one. */
  user?: string;
  /** Its positional arguments (a variadic one's values in its place), and its options by camel-cased name. */
  args: readonly string[];
  flags: Readonly<Record<string, unknown>>;
  out(text: string): void;
  /** Prints a value as one line of JSON (--json). */
  json(value: unknown): void;
  /** The password piped in on standard input (a usage error when there is none). */
  readPassword(): Promise<string>;
  /** True when a person is at the keyboard, so the command may ask them (askNewPassword, askYes). */
  canAsk: boolean;
  /** Asks for a new password twice, without echoing it, under `prompt` (a usage error when no one can be asked). */
  askNewPassword(prompt: string): Promise<string>;
  /** Asks a yes/no question; only "yes" or "y" is yes. */
  askYes(question: string): Promise<boolean>;
  /** The settings, resolved from the flags, the environment and the config file, without opening anything. */
  config(): Readonly<Config>;
  /** Calls `fn` when the operator interrupts the command (Ctrl-C, SIGTERM), for one that runs until then (`--follow`); returns how to stop listening. */
  onInterrupt(fn: () => void): () => void;
  /** Opens the app (applying pending migrations), runs `fn` and closes it. */
  withApp<T>(fn: (app: CommandApp) => Promise<T>): Promise<T>;
}

/** The app as a command sees it. */
export interface CommandApp {
  ctx: CoreContext;
  config: Readonly<Config>;
  /** The one user an email or id names; fails (listing them) when an address belongs to several. */
  findUser(ref: string): Promise<UserView>;
  /** One delivery attempt of the queued mail; what fails stays queued for the server. */
  flushMail(): Promise<{ sent: number; via?: string }>;
}

/** A command's failure: its message for the operator and the exit code (1 failed, 2 usage). */
export class CommandError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
