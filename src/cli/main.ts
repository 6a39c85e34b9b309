import { Command, CommanderError } from "commander";
import { CliError, processIO, type CliIO } from "./io.js";
import { serveCommand } from "./serve.js";
import { clusterWorkerArgv } from "./serve-cluster.js";
import { isSingleExecutable } from "../native/addons.js";

// Set by the builds (scripts/build.mjs, scripts/build-binary.mjs): package version and the git commit.
declare const __VERSION__: string | undefined;
declare const __COMMIT__: string | undefined;

/** `authsvc --version`: the version, the commit it was built from, the Node.js it runs on and how it was installed. */
export function describeVersion(): string {
  const version = typeof __VERSION__ === "string" ? __VERSION__ : "dev";
  const commit = typeof __COMMIT__ === "string" ? __COMMIT__ : "unknown";
  const kind = isSingleExecutable() ? "single executable" : "npm";
  return `authsvc ${version} (commit ${commit}, ${kind}, Node.js ${process.version})`;
}

const HELP_WIDTH = 100;

/**
 * The commander program around `commands`. `serve` builds its command alone (main below): every
 * command carries every setting as a flag, and building them all is a good part of a start-up
 * that `serve --workers N` pays once per process; nor does it load the other commands' modules
 * (the importers, db copy, backups, the bench: program.ts, imported for any other command).
 */
export function programOf(io: CliIO, commands: readonly Command[]): Command {
  const program = new Command("authsvc")
    .description("Self-hosted user authentication: sign-up and sign-in, verification, recovery, second factors, JWT sessions.")
    .version(describeVersion())
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, "")), writeErr: (s) => io.err(s.replace(/\n$/, "")) });
  for (const cmd of commands) program.addCommand(cmd);
  const exitOverride = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, "")), writeErr: (s) => io.err(s.replace(/\n$/, "")) });
    // One width for every command's help, whatever the terminal: descriptions wrap beside the
    // option column (commander's default follows the terminal and gives up on long option names).
    cmd.configureHelp({ helpWidth: HELP_WIDTH });
    cmd.commands.forEach(exitOverride);
  };
  exitOverride(program);
  // Once the command to run is chosen, the program lets go of the others: every command carries
  // every setting as a flag (about 6,000 option objects in all, 5 MB of heap), and `serve` keeps
  // the program alive until it stops, so a server would hold them all its life.
  program.hook("preSubcommand", (_, chosen) => {
    (program.commands as Command[]).splice(0, program.commands.length, chosen);
  });
  return program;
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const args = clusterWorkerArgv(argv);
  const program = args[2] === "serve" ? programOf(io, [serveCommand(io)]) : (await import("./program.js")).createProgram(io);
  let code: number | void = 0;
  try {
    const ran = await program.parseAsync(args);
    code = (ran as unknown as { _exitCode?: number })._exitCode ?? 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof CliError) {
      io.err(`authsvc: ${err.message}`);
      return err.exitCode;
    }
    io.err(`authsvc: unexpected error: ${(err as Error).stack ?? String(err)}`);
    return 1;
  }
  return code;
}
