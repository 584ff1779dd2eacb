/** User management (administrators) and the own-password change (every signed-in user). */
import { Hono } from "hono";
import { actorOf, type AppDeps, type AppEnv } from "../../http/context.ts";
import { validate } from "../../http/validation.ts";
import { changePasswordSchema, createUserSchema, updateUserSchema, userIdParam } from "./schemas.ts";
import { changeOwnPassword, createStaffUser, listUsers, resetPassword, updateStaffUser } from "./service.ts";

export function usersRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const app = new Hono<AppEnv>();

  app.get("/users", async (c) => c.json(await listUsers(db.read)));

  app.post("/users", validate("json", createUserSchema), async (c) => {
    const created = await createStaffUser(db, config, actorOf(c, config), c.req.valid("json"));
    // The one-time password is in this body and nowhere else: no cache may keep it.
    c.header("Cache-Control", "no-store");
    return c.json(created, 201);
  });

  app.patch("/users/:id", validate("param", userIdParam), validate("json", updateUserSchema), async (c) => {
    return c.json(
      await updateStaffUser(db, actorOf(c, config), c.req.valid("param").id, c.req.valid("json")),
    );
  });

  app.post("/users/:id/reset-password", validate("param", userIdParam), async (c) => {
    const reset = await resetPassword(db, config, actorOf(c, config), c.req.valid("param").id);
    c.header("Cache-Control", "no-store");
    return c.json(reset);
  });

  app.post("/auth/password", validate("json", changePasswordSchema), async (c) => {
    await changeOwnPassword(db, config, actorOf(c, config), c.get("sessionId"), c.req.valid("json"));
    return c.body(null, 204);
  });

  return app;
}
