import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { ImportRefusal, type ImportPart } from "../core/import-parts.js";
import type { ImportInput } from "../ops/import-users.js";
import { readImportLine } from "../ops/user-record.js";
import { auth0 } from "./auth0.js";
import { betterAuth } from "./better-auth.js";
import { clerk } from "./clerk.js";
import { firebase } from "./firebase.js";
import { keycloak } from "./keycloak.js";
import { kratos } from "./kratos.js";
import { recordOf } from "./common.js";
import type { MoveInOptions, MoveInSource } from "./source.js";
import { supabase } from "./supabase.js";
import { supertokens } from "./supertokens.js";

export { MoveInError } from "./common.js";
export type { MoveInOptions, MoveInSource } from "./source.js";

/** authsvc's own JSON lines (users export), read through the same path as every other source. */
const authsvc: MoveInSource = {
  id: "authsvc",
  files: "JSON lines files (authsvc users export, or rows written by hand)",
  async *read(files) {
    let n = 0;
    for (const file of files) {
      let line = 0;
      for await (const raw of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
        line++;
        const text = line === 1 ? raw.replace(/^\uFEFF/, "") : raw;
        if (text.trim() === "") continue;
        const read = readImportLine(text);
        n++;
        yield "refused" in read ? { line: n, where: `${file} line ${line}`, refused: read.refused } : { line: n, where: `${file} line ${line}`, record: read.record };
      }
    }
  },
};

/** Every system `users import --from` reads, by name. */
export const MOVE_IN_SOURCES: readonly MoveInSource[] = [authsvc, auth0, firebase, supabase, clerk, betterAuth, supertokens, keycloak, kratos];

/**
 * A source's rows as records of the import format, each person's made by the rooms' import parts
 * (common.ts recordOf; `parts` are the context's, Room.importer); a person with a fact no part
 * takes is refused, saying where it came from.
 */
export async function* readSource(source: MoveInSource, files: string[], options: MoveInOptions, parts: readonly ImportPart[]): AsyncIterable<ImportInput> {
  for await (const row of source.read(files, options)) {
    if (!("person" in row)) { yield row; continue; }
    let made: ImportInput;
    try {
      made = { line: row.line, where: row.where, record: recordOf(parts, row.person) };
    } catch (err) {
      if (!(err instanceof ImportRefusal)) throw err;
      made = { line: row.line, where: row.where, refused: err.message };
    }
    yield made;
  }
}
