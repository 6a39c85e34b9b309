import { existsSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, relative, sep } from "node:path";

/**
 * authsvc's command as this process was launched, for messages that tell a person what to type
 * next ("create the first admin with … admins create"): `authsvc` when that name on PATH is this
 * file (the single executable, a global install), `./bin/authsvc` from a checkout,
 * `./node_modules/.bin/authsvc` in an app that depends on it, else the absolute path. Never
 * `npx authsvc`: from a folder without a local install npx asks the public registry, where the
 * name is not ours. Launched any other way (a test runner), plain `authsvc`.
 */
export function describeLaunchCommand(p: { argv?: readonly string[]; cwd?: string; path?: string } = {}): string {
  const script = (p.argv ?? process.argv)[1];
  if (!script || !isAbsolute(script) || basename(script).replace(/\.exe$/i, "") !== "authsvc") return "authsvc";
  const onPath = (p.path ?? process.env.PATH ?? "").split(delimiter).filter(Boolean)
    .find((dir) => existsSync(join(dir, basename(script))));
  if (onPath !== undefined && join(onPath, basename(script)) === script) return basename(script);
  const cwd = p.cwd ?? process.cwd();
  const rel = relative(cwd, script);
  return !rel.startsWith("..") && !isAbsolute(rel) ? `.${sep}${rel}` : script;
}

/** The command once per process: the messages that use it are rendered once. */
let cached: string | undefined;
export function launchCommand(): string {
  cached ??= describeLaunchCommand();
  return cached;
}
