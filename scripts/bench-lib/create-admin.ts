// Creates a dashboard admin in a database through the same function as `authsvc admins create`
// (bundled and run by dashboard-admin.mjs), and prints { email, password, secret } as JSON.
import { randomBytes } from "node:crypto";
import { createApp } from "../../src/app.js";
import { resolveConfig } from "../../src/config.js";
import { createAdmin } from "../../src/dashboard/accounts/admins.js";

const database = process.argv[2];
const { config } = resolveConfig({ env: { AUTHSVC_DATABASE: database, AUTHSVC_LOG_LEVEL: "warn", AUTHSVC_MAIL_CATCHER: "false" } });
const app = await createApp(config);
const email = `bench-admin-${randomBytes(4).toString("hex")}@example.com`;
const password = `bench admin ${randomBytes(12).toString("hex")}`;
const made = await createAdmin(app.ctx, { email, password, source: "cli" });
await app.close();
process.stdout.write(JSON.stringify({ email, password, secret: made.secret }));
