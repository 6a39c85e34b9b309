// Measures RS256 access-token verification: jose's async jwtVerify against node:crypto's sync
// verify of the same token with a cached KeyObject. Loopback-free, CPU only.
// Usage: node scripts/bench-jwt-verify.mjs [iterations]
import { verify } from "node:crypto";
import { SignJWT, generateKeyPair, jwtVerify } from "jose";

const n = Number(process.argv[2] ?? 20000);
const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
const token = await new SignJWT({ sub: "u", sessionHandle: "h" }).setProtectedHeader({ alg: "RS256", kid: "d-1", typ: "JWT" })
  .setIssuedAt().setExpirationTime("15m").setIssuer("http://localhost/auth").sign(privateKey);
const keyObject = publicKey; // jose 6 returns node KeyObjects on Node

async function joseOnce() { await jwtVerify(token, keyObject, { algorithms: ["RS256"], issuer: "http://localhost/auth" }); }
function cryptoOnce() {
  const dot = token.lastIndexOf(".");
  const ok = verify("RSA-SHA256", Buffer.from(token.slice(0, dot)), keyObject, Buffer.from(token.slice(dot + 1), "base64url"));
  if (!ok) throw new Error("bad");
  const [h, p] = token.slice(0, dot).split(".");
  JSON.parse(Buffer.from(h, "base64url").toString()); JSON.parse(Buffer.from(p, "base64url").toString());
}
for (let i = 0; i < 2000; i++) { await joseOnce(); cryptoOnce(); } // warm-up
let t = process.hrtime.bigint();
for (let i = 0; i < n; i++) await joseOnce();
const joseUs = Number(process.hrtime.bigint() - t) / 1000 / n;
t = process.hrtime.bigint();
for (let i = 0; i < n; i++) cryptoOnce();
const cryptoUs = Number(process.hrtime.bigint() - t) / 1000 / n;
console.log(JSON.stringify({ node: process.version, iterations: n, joseJwtVerifyUs: +joseUs.toFixed(1), nodeCryptoVerifyUs: +cryptoUs.toFixed(1) }));
