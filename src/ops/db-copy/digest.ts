import { createHash } from "node:crypto";
import { canonical, type ColumnKind } from "./columns.js";

const MOD = 1n << 256n;

/**
 * A table's row count and checksum, the same on both ends whatever order the rows come in and
 * however the dialect holds each value: every row is the SHA-256 of its canonical values
 * (columns.ts) in the plan's column order, and the checksum is their sum modulo 2^256 (a multiset
 * hash: a row missing, added, duplicated or changed changes it).
 */
export class TableDigest {
  rows = 0;
  private sum = 0n;
  constructor(private readonly kinds: readonly ColumnKind[]) {}

  add(values: readonly unknown[]): void {
    const text = JSON.stringify(values.map((v, i) => canonical(v, this.kinds[i])));
    this.sum = (this.sum + BigInt(`0x${createHash("sha256").update(text).digest("hex")}`)) % MOD;
    this.rows++;
  }

  get checksum(): string {
    return this.sum.toString(16).padStart(64, "0");
  }
}
