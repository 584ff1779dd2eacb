/**
 * User management (administrators) and the own-password change (every signed-in user). While one
 * administrator exists they act alone (each act marked so in the audit trail); once dual control is
 * in force, a change that gives power answers 202 with a request for a second administrator.
 */
import { Hono } from "hono";
import { assertRolesSeparate } from "../../auth/users.ts";
import { type GrantOrigin, soleGrant } from "../../auth/role_grants.ts";
import { grantsPower } from "../../../domain/dual_control.ts";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { administer } from "../approvals/four_eyes.ts";
import { passwordResetDraft, userCreateDraft, userUpdateDraft } from "./requests.ts";
import { changePasswordSchema, createUserSchema, updateUserSchema, userIdParam } from "./schemas.ts";
import {
  changeOwnPassword,
  confirmRoles,
  createStaffUser,
  dualControlSummary,
  findUser,
  listUsers,
  resetPassword,
  updateStaffUser,
} from "./service.ts";

export function usersRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  app.get("/users", async (c) => c.json(await listUsers(db.read)));

  app.get("/dual-control", async (c) => c.json(await dualControlSummary(db.read)));

  app.post("/users", validate("json", createUserSchema), async (c) => {
    const input = c.req.valid("json");
    const actor = actorOf(c, config);
    assertRolesSeparate(input.roles);
    return await administer(c, deps, () => userCreateDraft(config, actor, input), async (origin) => {
      const created = await createStaffUser(db, config, actor, input, origin);
      // The one-time password is in this body and nowhere else: no cache may keep it.
      c.header("Cache-Control", "no-store");
      return c.json(created, 201);
    });
  });

  app.patch("/users/:id", validate("param", userIdParam), validate("json", updateUserSchema), async (c) => {
    const { id } = c.req.valid("param");
    const change = c.req.valid("json");
    const actor = actorOf(c, config);
    if (change.roles) assertRolesSeparate(change.roles);
    const target = await findUser(db.read, id);
    const apply = async (origin: GrantOrigin) => c.json(await updateStaffUser(db, actor, id, change, origin));
    // Taking power away (a role removed, an account disabled) acts at once, under dual control too.
    if (!grantsPower(target, change)) return await apply(soleGrant(actor.userId));
    return await administer(c, deps, () => userUpdateDraft(actor, target, change), apply);
  });

  app.post("/users/:id/reset-password", validate("param", userIdParam), async (c) => {
    const { id } = c.req.valid("param");
    const actor = actorOf(c, config);
    const request = async () => passwordResetDraft(config, actor, await findUser(db.read, id));
    return await administer(c, deps, request, async (origin) => {
      const reset = await resetPassword(db, config, actor, id, origin);
      c.header("Cache-Control", "no-store");
      return c.json(reset);
    });
  });

  app.post("/users/:id/confirm-roles", validate("param", userIdParam), async (c) => {
    return c.json(await confirmRoles(db, actorOf(c, config), c.req.valid("param").id));
  });

  app.post("/auth/password", validate("json", changePasswordSchema), async (c) => {
    await changeOwnPassword(db, config, actorOf(c, config), c.get("sessionId"), c.req.valid("json"));
    return c.body(null, 204);
  });

  return app;
}
