import type { CoreContext } from "../core/context.js";
import type { ImportFact } from "../core/import-parts.js";
import type { ImportInput } from "../ops/import-users.js";

/** Options some sources need (read from the command line). */
export interface MoveInOptions {
  /** Firebase: the text of the console's `hash_config { … }` block. */
  firebaseHashConfig?: string;
  /** Keycloak: each top-level group a person belongs to becomes an organization they are a member of. */
  groupsAsOrganizations?: boolean;
}

/**
 * What a source read of one person: the person's own fields, the facts about their ways in and
 * second factors (neutral words, core/import-parts.ts ImportFacts), and their metadata. The rooms'
 * parts make the record of it (common.ts recordOf).
 */
export interface MovedPerson {
  id?: unknown;
  email?: string;
  verified?: boolean;
  timeJoined?: number;
  facts: ImportFact[];
  metadata?: { [key: string]: unknown };
}

/** A row a source reads: a person, a record already in the import format (authsvc's own lines), or refused. */
export type MovedInput = ImportInput | { line: number; where: string; person: MovedPerson };

/** Another system users move in from: reads its export files into rows of our import. */
export interface MoveInSource {
  id: string;
  /** What FILE… are, for the help and errors. */
  files: string;
  /**
   * The rows: each a person (what the other system knows of them, made a record of the import
   * format by the rooms' parts, readSource) or a record, with the file and line (or record) it
   * came from, or refused with them; numbered from 1. A bad file throws MoveInError. Read twice by
   * an import (check, then write): each call reads the source again, so a large export is never
   * held whole.
   */
  read(files: string[], options: MoveInOptions): AsyncIterable<MovedInput>;
  /**
   * After the users are in (or, with dryRun, instead of writing): what else moves with them (roles,
   * signing keys, sessions), idempotent; returns lines that say what was (or would be) moved.
   */
  afterImport?(ctx: CoreContext, files: string[], options: { dryRun: boolean }): Promise<string[]>;
}
