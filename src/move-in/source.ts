import type { CoreContext } from "../core/context.js";
import type { ImportInput } from "../ops/import-users.js";

/** Options some sources need (read from the command line). */
export interface MoveInOptions {
  /** Firebase: the text of the console's `hash_config { … }` block. */
  firebaseHashConfig?: string;
}

/** Another system users move in from: reads its export files into rows of our import. */
export interface MoveInSource {
  id: string;
  /** What FILE… are, for the help and errors. */
  files: string;
  /**
   * The rows: each a record in the import format (ops/user-record.ts; the import validates it with
   * the rooms' parts) with the file and line (or record) it came from, or refused with them; numbered
   * from 1. A bad file throws MoveInError. Read twice by an import (check, then write): each call
   * reads the source again, so a large export is never held whole.
   */
  read(files: string[], options: MoveInOptions): AsyncIterable<ImportInput>;
  /**
   * After the users are in (or, with dryRun, instead of writing): what else moves with them (roles,
   * signing keys, sessions), idempotent; returns lines that say what was (or would be) moved.
   */
  afterImport?(ctx: CoreContext, files: string[], options: { dryRun: boolean }): Promise<string[]>;
}
