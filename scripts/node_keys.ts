/**
 * `deno task keys [--dir DIR] [--node NAME …]`: the Ed25519 key pair the primary verifies tokens
 * with, and one token per console node, written as files (mode 0600) and never printed:
 * DIR/primary-public.pem (sqld --auth-jwt-key-file, and the consoles' NODES_PUBLIC_KEY_FILE),
 * DIR/primary-private.pem (keep offline once the tokens are made), DIR/<node>.token
 * (DATABASE_AUTH_TOKEN of that node). Existing files are kept, so running it again only adds
 * tokens for new nodes.
 */
import { parseArgs } from "node:util";
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, SignJWT } from "jose";

export const PUBLIC_KEY_FILE = "primary-public.pem";
export const PRIVATE_KEY_FILE = "primary-private.pem";
const NODE_NAME = /^[a-z][a-z0-9-]{0,31}$/;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function writeSecret(path: string, text: string): Promise<void> {
  await Deno.writeTextFile(path, text, { mode: 0o600, createNew: true });
}

/** Makes the key pair (unless present) and a token per node; returns each node's token file. */
export async function ensureNodeKeys(dir: string, nodes: readonly string[]): Promise<Record<string, string>> {
  for (const node of nodes) {
    if (!NODE_NAME.test(node)) throw new Error(`node names are lower-case letters, digits and hyphens: "${node}"`);
  }
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const publicFile = `${dir}/${PUBLIC_KEY_FILE}`;
  const privateFile = `${dir}/${PRIVATE_KEY_FILE}`;
  if (!await exists(privateFile)) {
    const { publicKey, privateKey } = await generateKeyPair("EdDSA", { extractable: true });
    await writeSecret(privateFile, await exportPKCS8(privateKey));
    await Deno.writeTextFile(publicFile, await exportSPKI(publicKey), { mode: 0o644 });
  }
  const privateKey = await importPKCS8(await Deno.readTextFile(privateFile), "EdDSA");
  const files: Record<string, string> = {};
  for (const node of nodes) {
    const file = `${dir}/${node}.token`;
    if (!await exists(file)) {
      // Full access (no "a" claim): consoles write through the primary. sqld ignores "sub".
      const token = await new SignJWT({}).setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
        .setSubject(`console:${node}`).setIssuedAt().sign(privateKey);
      await writeSecret(file, token);
    }
    files[node] = file;
  }
  return files;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      dir: { type: "string", default: `${Deno.env.get("DATA_DIR") || "./data"}/keys` },
      node: { type: "string", multiple: true, default: ["headquarters"] },
    },
  });
  const files = await ensureNodeKeys(values.dir!, values.node!);
  console.log(`Primary's public key: ${values.dir}/${PUBLIC_KEY_FILE}`);
  for (const [node, file] of Object.entries(files)) console.log(`Token of ${node}: ${file}`);
}
