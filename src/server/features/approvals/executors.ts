/**
 * What each kind of four-eyes request does when approved: the owning feature's own service
 * function, run inside the approval's transaction (db/database.ts `databaseInTransaction`) on the
 * request body stored at submission, validated again by the feature's own schema. Composed here, so that the approvals feature and the features it executes never import each other.
 */
import { z } from "zod";
import type { AppDeps } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { databaseInTransaction } from "../../db/database.ts";
import type { ApprovalExecutors, ExecutionContext } from "./four_eyes.ts";
import { distributeCardSchema, issueCardSchema, loadCardSchema } from "../cards/schemas.ts";
import { createCardService, secureRandomDigits } from "../cards/service.ts";
import { accountIdParam, createAccountSchema, dailyOutflowLimitSchema } from "../ledger/schemas.ts";
import { createAccount, setDailyOutflowLimit } from "../ledger/service.ts";
import { institutionChangeSchema, statusChangeSchema } from "../institutions/schemas.ts";
import { changeInstitutionStatus } from "../institutions/status_changes.ts";
import { applyInstitutionChange } from "../institutions/lifecycle.ts";
import { autoSweepRequestSchema, createSweepSchema } from "../sweeps/schemas.ts";
import { runApprovedAutoSweep } from "../sweeps/automatic.ts";
import { executeManualSweep } from "../sweeps/manual.ts";
import { dualControlGrant } from "../../auth/role_grants.ts";
import { signInSettingsSchema, updateSignInSettings } from "../../auth/settings_routes.ts";
import { createUserSchema, updateUserSchema, userIdParam } from "../users/schemas.ts";
import { createStaffUser, resetPassword, updateStaffUser } from "../users/service.ts";
import { updateSettingsSchema } from "./schemas.ts";
import { identityBody } from "../identities/schemas.ts";
import { linkProviderIdentity } from "../identities/service.ts";
import { updateSettings } from "./service.ts";
import { securitySettingsSchema, updateSystemSettings } from "../../settings/system_settings.ts";
import { routingCodeParam, routingCodeStatusBody } from "../routing_codes/schemas.ts";
import { changeRoutingCodeStatus } from "../routing_codes/lifecycle.ts";
import { bicParam, swiftCodeStatusBody } from "../swift_codes/schemas.ts";
import { changeSwiftCodeStatus } from "../swift_codes/lifecycle.ts";
import { nationalRoutingIdParam, participantStatusBody } from "../national_routing/schemas.ts";
import { changeParticipantStatus } from "../national_routing/lifecycle.ts";
import { registryImportPayload } from "../registry_import/schemas.ts";
import { queueRegistryImport } from "../registry_import/apply.ts";
import { prepareEditionSchema } from "../directory/schemas.ts";
import { queueEdition } from "../directory/publisher.ts";

function revalidated<Schema extends z.ZodType>(schema: Schema, payload: unknown): z.output<Schema> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new AppError("unprocessable", "The stored request no longer passes validation; reject it", {
      extra: { reason: "invalid_request" },
    });
  }
  return parsed.data;
}

/** The approver as the executor of a money movement. */
const executorOf = (context: ExecutionContext) => ({
  ...context.approver,
  approvedBy: context.approver.userId,
});

/** A registry version's people: who asked, who approved, and the request that carried it. */
const registryPeopleOf = (context: ExecutionContext) => ({
  requestedBy: context.requestedBy,
  approvedBy: context.approver.userId,
  approvalRequestId: context.requestId,
});

function sweepExecutors(deps: AppDeps): Pick<ApprovalExecutors, "sweep" | "auto_sweep"> {
  return {
    async sweep(context, payload) {
      const sweep = await executeManualSweep(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        executorOf(context),
        revalidated(createSweepSchema, payload),
        deps.clock.now(),
        "second_person",
      );
      return { entityType: "balance_sweep", entityId: sweep.id, result: sweep };
    },

    async auto_sweep(context, payload) {
      const { moves } = revalidated(autoSweepRequestSchema, payload);
      const sweeps = await runApprovedAutoSweep(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        executorOf(context),
        moves.map((move) => ({
          sourceId: move.sourceAccountId,
          targetId: move.targetAccountId,
          amountMinor: move.amount,
        })),
      );
      const ids = sweeps.map((sweep) => sweep.id);
      return {
        entityType: "balance_sweep",
        entityId: ids.join(",") || "none",
        result: { sweepsExecuted: sweeps.length, sweepIds: ids },
      };
    },
  };
}

function cardExecutors(
  deps: AppDeps,
): Pick<ApprovalExecutors, "card_issue" | "card_distribute" | "card_load"> {
  const cardsIn = (context: ExecutionContext) =>
    createCardService({ ...deps, db: databaseInTransaction(deps.db, context.tx) }, {
      issuerPrefixes: deps.config.features.cardIssuerPrefixes,
      randomDigits: secureRandomDigits,
    });
  return {
    async card_issue(context, payload) {
      const card = await cardsIn(context).issue(
        context.actor,
        revalidated(issueCardSchema, payload),
        "second_person",
      );
      return { entityType: "card", entityId: card.id, result: card };
    },

    async card_distribute(context, payload) {
      const card = await cardsIn(context).distribute(
        context.actor,
        revalidated(distributeCardSchema, payload),
        "second_person",
      );
      return { entityType: "card", entityId: card.id, result: card };
    },

    async card_load(context, payload) {
      const { cardId, ...body } = payload as { cardId: string };
      const loaded = await cardsIn(context).load(
        context.actor,
        cardId,
        revalidated(loadCardSchema, body),
        "second_person",
      );
      return { entityType: "card", entityId: cardId, result: loaded };
    },
  };
}

/** The grant of an administration request: its maker and its approver, two people. */
const grantOf = (context: ExecutionContext) => dualControlGrant(context.requestedBy, context.approver.userId);

function userExecutors(deps: AppDeps): Pick<ApprovalExecutors, "user_create" | "user_update" | "user_reset_password"> {
  const inTransaction = (context: ExecutionContext) => databaseInTransaction(deps.db, context.tx);
  return {
    async user_create(context, payload) {
      const input = revalidated(createUserSchema, payload);
      const created = await createStaffUser(inTransaction(context), deps.config, context.actor, input, grantOf(context));
      return {
        entityType: "user",
        entityId: created.user.id,
        result: created.user,
        handout: { initialPassword: created.initialPassword },
      };
    },

    async user_update(context, payload) {
      const { id, ...change } = payload as { id: string };
      const user = await updateStaffUser(
        inTransaction(context),
        context.actor,
        revalidated(userIdParam, { id }).id,
        revalidated(updateUserSchema, change),
        grantOf(context),
      );
      return { entityType: "user", entityId: user.id, result: user };
    },

    async user_reset_password(context, payload) {
      const { id } = revalidated(userIdParam, payload);
      const reset = await resetPassword(inTransaction(context), deps.config, context.actor, id, grantOf(context));
      return { entityType: "user", entityId: id, result: null, handout: reset };
    },
  };
}

function settingsExecutors(
  deps: AppDeps,
): Pick<
  ApprovalExecutors,
  "approval_settings" | "sign_in_settings" | "security_settings" | "account_outflow_limit" | "identity_link"
> {
  return {
    async identity_link(context, payload) {
      const { id, ...identity } = payload as { id: string };
      const linked = await linkProviderIdentity(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        revalidated(userIdParam, { id }).id,
        revalidated(identityBody, identity),
        grantOf(context),
      );
      return { entityType: "user", entityId: id, result: linked };
    },

    async account_outflow_limit(context, payload) {
      const { id, ...body } = payload as { id: string };
      const account = await setDailyOutflowLimit(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        revalidated(accountIdParam, { id }).id,
        revalidated(dailyOutflowLimitSchema, body).dailyOutflowLimit,
        grantOf(context),
      );
      return { entityType: "ledger_account", entityId: account.id, result: account };
    },

    async approval_settings(context, payload) {
      const settings = await updateSettings(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        revalidated(updateSettingsSchema, payload),
        grantOf(context),
      );
      return { entityType: "approval_settings", entityId: "approval_settings", result: settings };
    },

    async sign_in_settings(context, payload) {
      const { mfaRequired } = revalidated(signInSettingsSchema, payload);
      await updateSignInSettings(databaseInTransaction(deps.db, context.tx), context.actor, mfaRequired, grantOf(context));
      return { entityType: "sign_in_settings", entityId: "1", result: { mfaRequired } };
    },

    async security_settings(context, payload) {
      const change = revalidated(securitySettingsSchema(deps.config.sessionIdleMinutes), payload);
      const db = databaseInTransaction(deps.db, context.tx);
      const settings = await updateSystemSettings(db, context.actor, "security", change, grantOf(context));
      return { entityType: "system_settings", entityId: "security", result: settings };
    },
  };
}

/** Which record a code_change request is about: its entity type and its code, BIC or id. */
const codeChangeTarget = z.object({
  entity: z.enum(["routing_code", "swift_code", "national_routing_entry"]),
  key: z.string(),
});

/**
 * A routing code's, BIC's or national routing entry's status from a date: the versions carry the
 * maker as requester and the approver as approver.
 */
function codeChangeExecutor(deps: AppDeps): Pick<ApprovalExecutors, "code_change"> {
  return {
    async code_change(context, payload) {
      const { entity, key } = revalidated(codeChangeTarget, payload);
      const { entity: _entity, key: _key, ...body } = payload as Record<string, unknown>;
      const db = databaseInTransaction(deps.db, context.tx);
      const people = { requestedBy: context.requestedBy, approvedBy: context.approver.userId };
      const nowMs = deps.clock.now();
      if (entity === "routing_code") {
        const { code } = revalidated(routingCodeParam, { code: key });
        const change = revalidated(routingCodeStatusBody, body);
        const result = await changeRoutingCodeStatus(db, context.actor, code, change, people, nowMs);
        return { entityType: entity, entityId: result.id, result };
      }
      if (entity === "swift_code") {
        const { bic } = revalidated(bicParam, { bic: key });
        const change = revalidated(swiftCodeStatusBody, body);
        const result = await changeSwiftCodeStatus(db, context.actor, bic, change, people, nowMs);
        return { entityType: entity, entityId: result.id, result };
      }
      const { id } = revalidated(nationalRoutingIdParam, { id: key });
      const change = revalidated(participantStatusBody, body);
      const result = await changeParticipantStatus(db, context.actor, id, change, people, nowMs);
      return { entityType: entity, entityId: id, result };
    },
  };
}

export function approvalExecutors(deps: AppDeps): ApprovalExecutors {
  return {
    ...sweepExecutors(deps),
    ...cardExecutors(deps),
    ...userExecutors(deps),
    ...settingsExecutors(deps),
    ...codeChangeExecutor(deps),

    async opening_balance(context, payload) {
      const account = await createAccount(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        revalidated(createAccountSchema, payload),
      );
      return { entityType: "ledger_account", entityId: account.id, result: account };
    },

    async directory_edition(context, payload) {
      const { effectiveDate, reason } = revalidated(prepareEditionSchema, payload);
      // Queued here, in the approval's transaction; the publisher builds it (directory/publisher.ts).
      const result = await queueEdition(context.tx, context.actor, {
        effectiveDate,
        reason,
        requestedBy: context.requestedBy,
        approvedBy: context.approver.userId,
        approvalRequestId: context.requestId,
      }, deps.clock.now());
      return { entityType: "directory_edition", entityId: String(result.number), result };
    },

    async institution_status(context, payload) {
      const { id, ...body } = payload as { id: string };
      const institution = await changeInstitutionStatus(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        id,
        revalidated(statusChangeSchema, body),
        registryPeopleOf(context),
        deps.clock.now(),
      );
      return { entityType: "institution", entityId: id, result: institution };
    },

    async institution_change(context, payload) {
      const { id, ...body } = payload as { id: string };
      const change = revalidated(institutionChangeSchema, body);
      const { institution } = await applyInstitutionChange(
        context.tx,
        context.actor,
        id,
        change,
        registryPeopleOf(context),
        deps.clock.now(),
      );
      return { entityType: "institution", entityId: id, result: institution };
    },

    async registry_import(context, payload) {
      const { importId } = revalidated(registryImportPayload, payload);
      // Queued here, applied by the applier in a transaction of its own (registry_import/applier.ts).
      const queued = await queueRegistryImport(context.tx, importId, context.approver.userId, deps.clock.now());
      return { entityType: "registry_import", entityId: importId, result: queued };
    },
  };
}
