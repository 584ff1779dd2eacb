/** The answer of GET /api/settings and of each tab's PUT, as the settings screen reads it. */
import type { BackupRun } from "../../backup/runs.ts";
import type { SystemSettings } from "../../settings/system_settings.ts";

/** Why "Audit Log Retention" is shown and cannot be changed. */
export const AUDIT_RETENTION_REASON =
  "The audit trail is never pruned: it is a hash chain whose every entry is kept for examiners and verification (docs/security.md).";
/** Why "SMS notifications" is shown off and cannot be turned on. */
export const SMS_REASON = "This console has no SMS gateway: notifications go by e-mail and to the bell only.";

export interface SystemSettingsAnswer extends SystemSettings {
  /** The fewest characters the password policy asks for. */
  passwordMinLength: number;
  /** The host's SESSION_IDLE_MINUTES: the longest session timeout that can take effect. */
  sessionTimeoutCeiling: number;
  /** What idle sessions get now: the setting under the ceiling. */
  effectiveSessionTimeout: number;
  /** The host's API_LOG_RETENTION_DAYS, used while requestLogRetentionDays is null. */
  requestLogRetentionDefaultDays: number;
  backup: {
    /** False on a regional node: headquarters takes the backups. */
    takesBackups: boolean;
    lastRun: BackupRun | null;
    /** When the next scheduled backup is due; null with automatic backups off or on a regional node. */
    nextDueAt: string | null;
  };
  /** Fields shown but not changeable, with the reason shown beside them. */
  readOnly: { auditLogRetention: string; smsNotifications: string };
}
