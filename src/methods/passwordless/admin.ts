import type { AdminUserCreator } from "../../http/admin/route.js";
import { adminUserJson, booleanField, stringField } from "../../http/admin/input.js";
import { badInput } from "../../core/errors.js";
import { createPasswordlessUser } from "./consume.js";

/** POST /users {email, passwordless: true}: a user who signs in with mailed codes only (their address verified). */
export const passwordlessUserCreator: AdminUserCreator = {
  when: (body) => booleanField(body, "passwordless", false),
  async create(deps, body) {
    if (body.password !== undefined) throw badInput("give either password or passwordless: true, not both");
    const p = await createPasswordlessUser(deps.ctx, { email: stringField(body, "email"), source: "admin-api" });
    if (p.status === "INVALID_EMAIL") throw badInput(p.message);
    if (p.status !== "OK") return { status: 409, answer: { message: p.message } };
    return { status: 201, answer: { user: adminUserJson(p.user) } };
  },
};
