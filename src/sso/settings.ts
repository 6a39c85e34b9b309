import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import type { SettingsBlock, SettingsCheck } from "../config/engine.js";
import { duration, optStr } from "../config/parsers.js";
import { ConfigError, type Config } from "../config/types.js";

declare module "../config/types.js" {
  interface Config {
    samlSigningKey: string | undefined;
    samlSigningCert: string | undefined;
    ssoMetadataRefreshMs: number;
  }
}

/** Enterprise sign-in's settings (docs/enterprise-sso.md): the SP's signing key, how often IdP metadata URLs are read again. */
export const ssoSettings: SettingsBlock = { after: "providers", rows: [
  { key: "samlSigningKey", flag: "saml-signing-key", env: "AUTHSVC_SAML_SIGNING_KEY", parse: optStr, default: () => undefined, doc: "a PEM file with the RSA private key that signs every SAML connection's AuthnRequests (with --saml-signing-cert; the SP metadata publishes the certificate)" },
  { key: "samlSigningCert", flag: "saml-signing-cert", env: "AUTHSVC_SAML_SIGNING_CERT", parse: optStr, default: () => undefined, doc: "a PEM file with the certificate of --saml-signing-key, published in the SP metadata for the IdPs" },
  { key: "ssoMetadataRefreshMs", flag: "sso-metadata-refresh", env: "AUTHSVC_SSO_METADATA_REFRESH", parse: duration(60_000, 7 * 24 * 3_600_000), default: () => 6 * 3_600_000, doc: "how often a SAML connection's IdP metadata given as a URL is read again (a failed read keeps the last good copy, is logged and shown in `authsvc orgs sso list`)" },
] };

/** The SP's signing key and certificate, read once per configuration. */
export interface SpSigningKey { privateKey: string; cert: string }
const loaded = new WeakMap<Readonly<Config>, SpSigningKey>();

export function spSigningKey(config: Readonly<Config>): SpSigningKey | undefined {
  if (!config.samlSigningKey || !config.samlSigningCert) return undefined;
  let k = loaded.get(config);
  if (!k) {
    k = readSigningKey(config.samlSigningKey, config.samlSigningCert);
    loaded.set(config, k);
  }
  return k;
}

function readSigningKey(keyFile: string, certFile: string): SpSigningKey {
  const read = (file: string, flag: string) => {
    try { return readFileSync(file, "utf8"); } catch (err) { throw new ConfigError(`invalid value for --${flag}: ${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message}`); }
  };
  const privateKey = read(keyFile, "saml-signing-key");
  const cert = read(certFile, "saml-signing-cert");
  let key;
  try { key = createPrivateKey(privateKey); } catch { throw new ConfigError(`invalid value for --saml-signing-key: ${keyFile}: not a PEM private key`); }
  if (key.asymmetricKeyType !== "rsa") throw new ConfigError(`invalid value for --saml-signing-key: ${keyFile}: an RSA key is needed (rsa-sha256, which every IdP checks)`);
  let x509;
  try { x509 = new X509Certificate(cert); } catch { throw new ConfigError(`invalid value for --saml-signing-cert: ${certFile}: not a PEM certificate`); }
  if (!x509.checkPrivateKey(key)) throw new ConfigError(`--saml-signing-cert ${certFile} is not the certificate of --saml-signing-key ${keyFile}`);
  return { privateKey, cert };
}

/** Both or neither; read at start so a bad file stops it with a clear message. */
export const checkSsoSettings: SettingsCheck = (c) => {
  if (Boolean(c.samlSigningKey) !== Boolean(c.samlSigningCert)) throw new ConfigError("--saml-signing-key and --saml-signing-cert go together: give both, or neither (AuthnRequests unsigned)");
  spSigningKey(c);
};
