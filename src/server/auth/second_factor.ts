/**
 * TOTP second factor (RFC 6238) through otpauth, with its QR code drawn by qrcode. The shared
 * secret is encrypted at rest; recovery codes are kept as keyed hashes. A code is accepted once:
 * the time step of the last accepted code is stored, and a code from that step or an earlier one is
 * refused (checked inside the transaction that records the new step, so two requests racing with
 * one code cannot both pass). The field names that carry a secret (secret, otpauth…, recoveryCodes,
 * otp) are ones the request log redacts.
 */
import { and, eq, isNull } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { sessions, signInSettings, userRecoveryCodes, userTotp } from "../../../db/schema.ts";
import { type SecondFactorPolicy, secondFactorRequired } from "../../domain/sign_in_policy.ts";
import { recordAudit } from "../audit/trail.ts";
import type { Config } from "../config.ts";
import type { Database, Queryable, Tx } from "../db/database.ts";
import type { Secrets } from "../secrets.ts";

export const TOTP_ISSUER = "Central Bank Registry";
const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** One step either side: a phone clock up to 30 s off still works. */
const TOTP_WINDOW_STEPS = 1;
const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
/** 16 base32 characters: 80 random bits, shown as four groups of four. */
const RECOVERY_CODE_BYTES = 10;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export const TOTP_CODE_PATTERN = /^\d{6}$/;
export const RECOVERY_CODE_PATTERN = /^[A-Z2-7]{4}(-?[A-Z2-7]{4}){3}$/i;

export async function secondFactorPolicy(db: Queryable, config: Config): Promise<SecondFactorPolicy> {
  const row = await db.select({ all: signInSettings.mfaRequiredForAll }).from(signInSettings)
    .where(eq(signInSettings.id, 1)).get();
  return { enforced: config.requireMfa, requiredForAll: row?.all ?? true };
}

export async function mustUseSecondFactor(db: Queryable, config: Config, roles: readonly string[]) {
  return secondFactorRequired(roles, await secondFactorPolicy(db, config));
}

export async function hasConfirmedTotp(db: Queryable, userId: string): Promise<boolean> {
  const row = await db.select({ confirmedAt: userTotp.confirmedAt }).from(userTotp)
    .where(eq(userTotp.userId, userId)).get();
  return Boolean(row?.confirmedAt);
}

const totpFor = (secret: Secret, email: string) =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label: email,
    secret,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });

export interface Enrolment {
  /** Base32, for typing into an authenticator app by hand. */
  secret: string;
  otpauthUri: string;
  /** The otpauth URI as a PNG data URL (the CSP allows data: images). */
  otpauthQrCode: string;
}

/**
 * The enrolment in progress for a user without a confirmed authenticator: the same secret on every
 * visit until a first code confirms it, so reloading the page does not invalidate a scanned code.
 */
export async function pendingEnrolment(
  db: Database,
  secrets: Secrets,
  user: { id: string; email: string },
): Promise<Enrolment> {
  const existing = await db.read.select().from(userTotp).where(eq(userTotp.userId, user.id)).get();
  let secret: Secret;
  if (existing && !existing.confirmedAt) {
    secret = Secret.fromBase32(await secrets.decrypt(existing.secretEncrypted));
  } else if (existing) {
    throw new Error("the user already has a confirmed authenticator");
  } else {
    secret = new Secret({ size: SECRET_BYTES });
    const secretEncrypted = await secrets.encrypt(secret.base32);
    await db.transaction((tx) =>
      tx.insert(userTotp).values({ userId: user.id, secretEncrypted }).onConflictDoNothing()
    );
    // Two first visits at once: both show the secret that was stored first.
    return pendingEnrolment(db, secrets, user);
  }
  const otpauthUri = totpFor(secret, user.email).toString();
  return {
    secret: secret.base32,
    otpauthUri,
    otpauthQrCode: await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: "M", margin: 2, width: 220 }),
  };
}

/** The time step a code is valid for, if it is valid now and newer than the last one accepted. */
function acceptedStep(secret: Secret, email: string, code: string, lastUsedStep: number, nowMs: number) {
  if (!TOTP_CODE_PATTERN.test(code)) return null;
  const delta = totpFor(secret, email).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  const step = TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs }) + delta;
  return step > lastUsedStep ? step : null;
}

function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_BYTES));
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join("-");
}

const normalizeRecoveryCode = (code: string) => code.replaceAll("-", "").toUpperCase();

/**
 * Confirms a pending enrolment with its first code and issues the recovery codes (returned once, in
 * clear, to show the user). False when the code is wrong.
 */
export async function confirmEnrolment(
  tx: Tx,
  secrets: Secrets,
  user: { id: string; email: string },
  code: string,
  nowMs: number,
): Promise<string[] | null> {
  const row = await tx.select().from(userTotp).where(
    and(eq(userTotp.userId, user.id), isNull(userTotp.confirmedAt)),
  )
    .get();
  if (!row) return null;
  const secret = Secret.fromBase32(await secrets.decrypt(row.secretEncrypted));
  const step = acceptedStep(secret, user.email, code, row.lastUsedStep, nowMs);
  if (step === null) return null;
  await tx.update(userTotp).set({ confirmedAt: new Date(nowMs).toISOString(), lastUsedStep: step })
    .where(eq(userTotp.userId, user.id));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, user.id));
  await tx.insert(userRecoveryCodes).values(
    codes.map((clear) => ({ userId: user.id, codeHash: secrets.fingerprint(normalizeRecoveryCode(clear)) })),
  );
  return codes;
}

/** Checks a code from the authenticator, or else an unused recovery code, and spends it. */
export async function verifySecondFactor(
  tx: Tx,
  secrets: Secrets,
  user: { id: string; email: string },
  code: string,
  nowMs: number,
): Promise<"totp" | "recovery_code" | null> {
  const trimmed = code.trim();
  if (RECOVERY_CODE_PATTERN.test(trimmed)) {
    const spent = await tx.update(userRecoveryCodes).set({ usedAt: new Date(nowMs).toISOString() })
      .where(and(
        eq(userRecoveryCodes.userId, user.id),
        eq(userRecoveryCodes.codeHash, secrets.fingerprint(normalizeRecoveryCode(trimmed))),
        isNull(userRecoveryCodes.usedAt),
      )).returning({ userId: userRecoveryCodes.userId }).get();
    return spent ? "recovery_code" : null;
  }
  const row = await tx.select().from(userTotp).where(eq(userTotp.userId, user.id)).get();
  if (!row?.confirmedAt) return null;
  const secret = Secret.fromBase32(await secrets.decrypt(row.secretEncrypted));
  const step = acceptedStep(secret, user.email, trimmed, row.lastUsedStep, nowMs);
  if (step === null) return null;
  await tx.update(userTotp).set({ lastUsedStep: step }).where(eq(userTotp.userId, user.id));
  return "totp";
}

/**
 * Removes a user's authenticator and recovery codes (lost phone, left-over codes gone) and ends
 * their sessions; at the next sign-in they enrol again if they must. `deno task user:reset-mfa`.
 */
export async function resetSecondFactor(db: Database, userId: string, performedBy: string): Promise<boolean> {
  return await db.transaction(async (tx) => {
    const removed = await tx.delete(userTotp).where(eq(userTotp.userId, userId)).returning({
      userId: userTotp.userId,
    })
      .get();
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    if (removed) {
      await recordAudit(tx, { userId: performedBy, ipAddress: null, userAgent: null }, {
        entityType: "user",
        entityId: userId,
        action: "second_factor_reset",
      });
    }
    return Boolean(removed);
  });
}
