import { afterEach } from "vitest";
import { openStore, type Store } from "../../src/store/database.js";
import type { Backend } from "../helpers/backends.js";
import { runCli, type CliResult } from "../helpers/cli.js";

export const PW = "correct horse battery staple";

/**
 * A fresh database per test for CLI tests: `cli(args)` runs the CLI in-process against it
 * (`--database` appended), `store()` opens it directly to check what the command did.
 */
export function useCliDatabase(backend: Backend) {
  const cleanup: Array<() => Promise<void>> = [];
  let url = "";
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });
  return {
    /** A fresh database, migrated as `authsvc migrate` would (`empty`: not even the file exists). */
    async create(opts: { empty?: boolean } = {}): Promise<string> {
      const db = await backend.create();
      cleanup.push(db.drop);
      url = db.url;
      if (opts.empty) return url;
      // As an operator would: `migrate` makes the database; admin commands refuse a missing file.
      const m = await runCli(["migrate", "--database", url]);
      if (m.code !== 0) throw new Error(`migrate failed: ${m.stderr}`);
      return url;
    },
    url: () => url,
    cli(args: string[], opts: { stdin?: string; env?: Record<string, string>; terminal?: boolean } = {}): Promise<CliResult> {
      return runCli([...args, "--database", url], opts);
    },
    store(): Store {
      const s = openStore({ url });
      cleanup.push(() => s.close());
      return s;
    },
  };
}
