import type { Kysely } from "kysely";
import type { Dialect } from "../database.js";
import * as m001 from "./001-initial.js";
import * as m002 from "./002-rate-limits.js";
import * as m003 from "./003-hardening.js";
import * as m004 from "./004-admin.js";
import * as m005 from "./005-account-linking.js";
import * as m010 from "./010-roles-metadata.js";

export interface Migration {
  name: string;
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Every migration, in order. Append only; never edit one that has shipped. */
export const migrations: readonly Migration[] = [
  { name: "001-initial", up: m001.up },
  { name: "002-rate-limits", up: m002.up },
  { name: "003-hardening", up: m003.up },
  { name: "004-admin", up: m004.up },
  { name: "005-account-linking", up: m005.up },
  { name: "010-roles-metadata", up: m010.up },
];
