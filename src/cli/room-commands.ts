import { Command, Option } from "commander";
import type { CommandRun, CommandSpec, UserCreationSpec } from "../core/commands.js";
import { CommandError } from "../core/commands.js";
import { rooms } from "../rooms.js";
import { printJson, withApp } from "./context.js";
import { askYes, CliError, readPasswordFromStdin, type CliIO } from "./io.js";
import { addAdminSubcommand, addConfigOptions, addCreateOption, configFromFlags } from "./options.js";
import { askNewPassword } from "./password-prompt.js";
import { resolveUserRef } from "./user-ref.js";
import { addUserArgument, pickUserRef } from "./user-arg.js";

/** The commands the rooms declare (Room.commands, core/commands.ts), in the rooms' order. */
const declared = (): CommandSpec[] => rooms.flatMap((r) => r.commands ?? []);

/**
 * The rooms' commands of their own (`authsvc passkeys`), each put right after the kernel command
 * its `after` names (at the end when none is named), so `authsvc --help` lists them where it always has.
 */
export function withRoomCommands(kernel: Command[], io: CliIO): Command[] {
  const all = [...kernel];
  const pending = declared().filter((s) => s.under === undefined);
  while (pending.length > 0) {
    // A hint may name another room's command that comes later in the rooms' order: each turn places
    // the first whose command is there already (the first left when none is, at the end).
    const ready = pending.findIndex((s) => s.after === undefined || all.some((c) => c.name() === s.after));
    const [spec] = pending.splice(Math.max(ready, 0), 1);
    const at = spec.after === undefined ? -1 : all.findIndex((c) => c.name() === spec.after);
    all.splice(at < 0 ? all.length : at + 1, 0, toCommand(spec, io));
  }
  return all;
}

/** Adds the rooms' commands that go under a kernel command (`users mfa`) to it. */
export function addRoomCommands(parent: Command, io: CliIO): void {
  for (const spec of declared().filter((s) => s.under === parent.name())) attach(parent, spec, io);
}

function toCommand(spec: CommandSpec, io: CliIO): Command {
  const holder = new Command();
  return attach(holder, spec, io);
}

/** Builds a spec's command (and its subcommands) under `parent`; the flags keep the house's order for its layout. */
function attach(parent: Command, spec: CommandSpec, io: CliIO): Command {
  if (spec.commands) {
    const group = new Command(spec.name).description(spec.description);
    parent.addCommand(group);
    for (const sub of spec.commands) attach(group, sub, io);
    // Another room's commands may go under a room's group too (`orgs scim-token` under `orgs`).
    for (const extra of declared().filter((s) => s.under === spec.name)) attach(group, extra, io);
    return group;
  }
  const layout = spec.layout ?? "admin";
  const cmd = layout === "admin" ? addAdminSubcommand(parent, spec.name, spec.description) : new Command(spec.name).description(spec.description);
  if (layout === "settings") addConfigOptions(cmd.option("--json", "machine-readable output"), "common");
  if (spec.user) addUserArgument(cmd, spec.user.deprecated);
  for (const a of spec.arguments ?? []) cmd.argument(a.name, a.description);
  for (const o of spec.options ?? []) {
    const option = new Option(o.flags, o.description).makeOptionMandatory(o.required === true);
    cmd.addOption(o.default === undefined ? option : option.default(o.default));
  }
  if (layout === "own") {
    addConfigOptions(cmd, "common");
    addCreateOption(cmd);
  }
  if (layout !== "admin") parent.addCommand(cmd);
  const action = spec.action;
  if (action) cmd.action(async (...given: unknown[]) => {
    const args = given.slice(0, cmd.registeredArguments.length) as Array<string | string[] | undefined>;
    const flags = given[cmd.registeredArguments.length] as Record<string, unknown>;
    const user = spec.user ? pickUserRef(io, cmd, args[0] as string | undefined, flags) : undefined;
    // A variadic argument (`[permissions...]`) comes as a list: its values take its place.
    const rest = (spec.user ? args.slice(1) : args).flat().filter((a): a is string => a !== undefined);
    return runDeclared(() => action(commandRun(io, flags, rest, user)));
  });
  return cmd;
}

/** What a declared command's action is given (core/commands.ts CommandRun), on this IO. */
export function commandRun(io: CliIO, flags: Record<string, unknown>, args: readonly string[], user?: string): CommandRun {
  return {
    user, args, flags,
    out: (text) => io.out(text),
    json: (value) => printJson(io, value),
    readPassword: () => readPasswordFromStdin(io.stdin),
    canAsk: io.isTerminal === true,
    askNewPassword: (prompt) => askNewPassword(io, prompt),
    askYes: (question) => askYes(io, question),
    config: () => configFromFlags(flags, io).config,
    onInterrupt: (fn) => io.onSignal?.(fn) ?? (() => {}),
    withApp: (fn) => withApp(flags, io, (app) => fn({ ctx: app.ctx, config: app.config, findUser: (ref) => resolveUserRef(app, ref), flushMail: () => app.mail.flush() })),
  };
}

/** Runs a room's action; its CommandError becomes the CLI's error with the same message and exit code. */
export async function runDeclared(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof CommandError) throw new CliError(err.message, err.exitCode);
    throw err;
  }
}

/** The ways `users create` makes a user (Room.userCreation), in the rooms' order. */
export const userCreations = (): UserCreationSpec[] => rooms.flatMap((r) => (r.userCreation ? [r.userCreation] : []));
