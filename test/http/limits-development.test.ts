import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig, settings } from "../../src/config.js";
import { backends } from "../helpers/backends.js";
import { call, signin } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const PW = "correct horse battery staple";
/** The budgets `authsvc serve` resolves with no settings at all (development on 127.0.0.1). */
const defaultBudgets = () => {
  const { config } = resolveConfig({ env: {} });
  return Object.fromEntries(settings.filter((s) => s.key.startsWith("limit")).map((s) => [s.key, config[s.key]]));
};

describe.each(backends)("development on loopback: a local end-to-end loop on $name", (backend) => {
  let t: TestApp;
  afterEach(async () => { await t?.close(); });

  it("signs up 30 users, signs each in and asks each a reset mail twice without a 429", async () => {
    t = await createTestApp({ backend, config: defaultBudgets() });
    for (let i = 0; i < 30; i++) {
      const email = `loop${i}@example.com`;
      expect((await call(t, "/signup", signin(email, PW))).status).toBe(200);
      expect((await call(t, "/signin", signin(email, PW))).status).toBe(200);
      for (let k = 0; k < 2; k++) expect((await call(t, "/user/password/reset/token", { formFields: [{ id: "email", value: email }] })).status).toBe(200);
    }
  }, 60_000);
});
