/**
 * What each kind of four-eyes request does when approved: the owning feature's own service
 * function, run inside the approval's transaction (four_eyes.ts `databaseInTransaction`) on the
 * request body stored at submission, validated again by the feature's own schema. Composed here, so that the approvals feature and the features it executes never import each other.
 */
import type { z } from "zod";
import type { AppDeps } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { type ApprovalExecutors, databaseInTransaction, type ExecutionContext } from "./four_eyes.ts";
import { distributeCardSchema, issueCardSchema, loadCardSchema } from "../cards/schemas.ts";
import { createCardService, secureRandomDigits } from "../cards/service.ts";
import { createAccountSchema } from "../ledger/schemas.ts";
import { createAccount } from "../ledger/service.ts";
import { statusChangeSchema } from "../institutions/schemas.ts";
import { changeInstitutionStatus } from "../institutions/service.ts";
import { autoSweepRequestSchema, createSweepSchema } from "../sweeps/schemas.ts";
import { runApprovedAutoSweep } from "../sweeps/automatic.ts";
import { executeManualSweep } from "../sweeps/manual.ts";

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

function sweepExecutors(deps: AppDeps): Pick<ApprovalExecutors, "sweep" | "auto_sweep"> {
  return {
    async sweep(context, payload) {
      const sweep = await executeManualSweep(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        executorOf(context),
        revalidated(createSweepSchema, payload),
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

export function approvalExecutors(deps: AppDeps): ApprovalExecutors {
  return {
    ...sweepExecutors(deps),
    ...cardExecutors(deps),

    async opening_balance(context, payload) {
      const account = await createAccount(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        revalidated(createAccountSchema, payload),
      );
      return { entityType: "ledger_account", entityId: account.id, result: account };
    },

    async institution_status(context, payload) {
      const { id, ...body } = payload as { id: string };
      const { status, reason } = revalidated(statusChangeSchema, body);
      const institution = await changeInstitutionStatus(
        databaseInTransaction(deps.db, context.tx),
        context.actor,
        id,
        status,
        reason,
      );
      return { entityType: "institution", entityId: id, result: institution };
    },
  };
}
