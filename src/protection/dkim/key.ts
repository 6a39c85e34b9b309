import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { ConfigError, type Config } from "../../config/types.js";

/**
 * The DKIM key (--dkim-private-key): a PEM RSA private key of 2048 bits or more (RFC 8301; nodemailer
 * signs rsa-sha256 only, and every receiver verifies it), readable by this account alone (0600: whoever reads it can sign mail as the
 * domain, so a looser mode stops the start, as ssh does with its keys). Read once per configuration.
 */
export interface DkimKey { pem: string; key: KeyObject; domain: string; selector: string }

const loaded = new WeakMap<Readonly<Config>, DkimKey>();

export function dkimKeyOf(config: Readonly<Config>): DkimKey | undefined {
  if (!config.dkimPrivateKey) return undefined;
  let k = loaded.get(config);
  if (!k) {
    k = readDkimKey(config.dkimPrivateKey, mailDomain(config.mailFrom), config.dkimSelector);
    loaded.set(config, k);
  }
  return k;
}

function readDkimKey(file: string, domain: string, selector: string): DkimKey {
  const bad = (why: string) => new ConfigError(`invalid value for --dkim-private-key: ${file}: ${why}`);
  let pem: string;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
    pem = readFileSync(file, "utf8");
  } catch (err) {
    throw bad((err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message);
  }
  if (mode & 0o077) throw bad(`other accounts can read it (mode ${mode.toString(8).padStart(4, "0")}); run chmod 600 on it`);
  let key: KeyObject;
  try { key = createPrivateKey(pem); } catch { throw bad("not a PEM private key"); }
  if (key.asymmetricKeyType !== "rsa") throw bad(`a ${key.asymmetricKeyType} key: mail is signed with RSA (rsa-sha256), the one algorithm every receiver checks`);
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw bad("an RSA key must have 2048 bits or more");
  return { pem, key, domain, selector };
}

/** The domain of the From address (`Name <no-reply@example.com>` → example.com), lower-cased. */
export function mailDomain(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/** The DKIM TXT record's value for the key's public half (RFC 6376 §3.6.1: the SubjectPublicKeyInfo, base64). */
export function dkimRecord(k: DkimKey): string {
  const pub = createPublicKey(k.key);
  return `v=DKIM1; k=rsa; p=${pub.export({ type: "spki", format: "der" }).toString("base64")}`;
}
