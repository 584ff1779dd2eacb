/**
 * The audit chain's key (HMAC-SHA-256, 32 bytes): AUDIT_CHAIN_KEY (base64), else the key file
 * DATA_DIR/audit-chain.key, created once with mode 0600 like the secrets key. It never goes into
 * the database, which holds only its fingerprint (audit_chain_state.key_id).
 */
import { registerAuditChainKey } from "./trail.ts";
import type { Config } from "../config.ts";
import { AUDIT_CHAIN_KEY_FILE_NAME, loadKey } from "../secrets.ts";

/**
 * Loads the chain key and registers it for this process's writers; `create: false` (verification)
 * refuses to make up a key that no chain can have been written with.
 */
export async function useAuditChainKey(config: Config, { create = true } = {}): Promise<Uint8Array> {
  const key = await loadKey(config.dataDir, {
    fileName: AUDIT_CHAIN_KEY_FILE_NAME,
    setting: "AUDIT_CHAIN_KEY",
    configured: config.auditChainKey,
    create,
  });
  registerAuditChainKey(key);
  return key;
}
