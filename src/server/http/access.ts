/**
 * Role enforcement for every signed-in API request: the route Hono will dispatch to is looked up in
 * the rule table (src/domain/access.ts). A route without a rule is refused, never let through, and
 * tests/api/roles_test.ts walks the router so such a route fails the build first.
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { blockedByRoleConflict, forbiddenMessage, mayCall, type RouteRule, ruleFor } from "../../domain/access.ts";
import { roleConflict } from "../../domain/dual_control.ts";
import type { AppEnv } from "./context.ts";
import { AppError } from "./errors.ts";

export const PASSWORD_CHANGE_REQUIRED =
  "Change your initial password first: POST /api/auth/password with currentPassword and newPassword";

export function enforceRoles(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    // Middleware is registered for ALL methods; the first API route of the request's own method answers
    // (the SPA's catch-all GET never does under /api: the JSON 404 comes first).
    const route = matchedRoutes(c).find((candidate) =>
      candidate.method === method && candidate.path.startsWith("/api/")
    );
    // No API route of this method: the JSON 404 answers.
    if (!route) return next();
    const rule: RouteRule | undefined = ruleFor(method, route.path);
    if (!rule) throw new AppError("forbidden", `No role may call ${method} ${route.path}`);
    const user = c.get("user");
    if (user.mustChangePassword && !rule.beforePasswordChange) {
      throw new AppError("forbidden", PASSWORD_CHANGE_REQUIRED, {
        extra: { reason: "password_change_required" },
      });
    }
    if (!mayCall(rule, user.roles)) {
      throw new AppError("forbidden", forbiddenMessage(rule), {
        extra: { requiredRoles: rule.roles === "signed-in" ? [] : rule.roles },
      });
    }
    const conflict = blockedByRoleConflict(method, rule) ? roleConflict(user.roles) : null;
    if (conflict) {
      throw new AppError("forbidden", `${conflict}. An administrator must resolve your roles first`, {
        extra: { reason: "role_conflict" },
      });
    }
    await next();
  };
}
