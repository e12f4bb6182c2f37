import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { nodeFiles, nodeRegistrationTokens } from "../db/schema.ts";
import { execRows } from "../lib/list.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { randomToken, sha256 } from "../lib/crypto.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { nodeMessages, registrationTokenHours, type NodeCloudInit, type NodeOva, type NodeRegistered, type NodeVpnConfig } from "../contract/nodes.ts";
import { buildOva, cloudInitData, wireguardConfig, wireguardKeyPair, type HostedSettings } from "./node-files-build.ts";
import { openSecret, sealSecret, secretsKey } from "./node-files-crypto.ts";
import { findNode, ovaPath, setFormFactor, updateNode, type NodeKind, type NodeRef } from "./nodes-common.ts";

/*
 * The form factors' files and registration (issue #28). A registration token is random, kept only
 * as its SHA-256, single use (one conditional UPDATE claims it, so two concurrent registrations
 * cannot both succeed) and expires after 24 h. The OVA (which holds a token) and the WireGuard
 * configuration (which holds the node's private key) are stored encrypted with the secrets key
 * and served to the owning account only; cloud-init data is answered once and not stored.
 */

type Deps = Pick<PlatformDeps, "db" | "config" | "fleet">;

/** The platform's address as a node reaches it (PLATFORM_URL, else the console's address) with the API prefix. */
export const platformAddress = (deps: Pick<PlatformDeps, "config">) => `${(process.env.PLATFORM_URL || deps.config.consoleUrl).replace(/\/$/, "")}/api/v1`;

const key = (deps: Pick<PlatformDeps, "config">) => secretsKey(deps.config.dataDir);
const subject = (n: NodeRef) => ({ id: n.id, name: n.name, kind: n.kind });

/** A new registration token for the node: the token (to put in a file) and when it expires. */
export async function issueRegistrationToken(db: DbOrTx, accountId: string, node: { id: string; kind: NodeKind }, now = new Date()) {
  const token = `lwreg_${randomToken(32)}`;
  const expiresAt = new Date(now.getTime() + registrationTokenHours * 3_600_000);
  await db.insert(nodeRegistrationTokens).values({ tokenHash: sha256(token), accountId, nodeId: node.id, nodeKind: node.kind, expiresAt, createdAt: now });
  return { token, expiresAt };
}

async function storeFile(db: DbOrTx, deps: Deps, accountId: string, nodeId: string, kind: "ova" | "vpn", fileName: string, data: Buffer) {
  await db.insert(nodeFiles).values({ fileName, accountId, nodeId, kind, contentEnc: sealSecret(key(deps), data) });
}

/** prepare-epn-ova / prepare-sn-ova: a new OVA (with a new token) replaces the node's last; the form factor becomes ova. */
export async function prepareOva(deps: Deps, accountId: string, nodeId: string, kind: NodeKind): Promise<NodeOva> {
  const node = await findNode(deps.db, accountId, nodeId, kind);
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    const { token, expiresAt } = await issueRegistrationToken(tx, accountId, node, now);
    const ova = await buildOva(subject(node), platformAddress(deps), token, now);
    const fileName = `${ova.fileName.replace(/\.ova$/, "")}-${randomToken(6)}.ova`;
    await tx.delete(nodeFiles).where(and(eq(nodeFiles.nodeId, node.id), eq(nodeFiles.kind, "ova")));
    await storeFile(tx, deps, accountId, node.id, "ova", fileName, ova.data);
    await setFormFactor(tx, fleetOf(deps), accountId, node, { form_factor: "ova" }, now);
    await updateNode(tx, node.kind, accountId, node.id, { ovaFile: fileName });
    return { detail: nodeMessages.ovaPrepared, node_url: ovaPath(fileName), file_name: fileName, expires_at: expiresAt.toISOString() };
  });
}

/** generate-node-cloud-init-data: a #cloud-config with a new token; the form factor becomes ami. */
export async function generateCloudInit(deps: Deps, accountId: string, nodeId: string): Promise<NodeCloudInit> {
  const node = await findNode(deps.db, accountId, nodeId);
  const now = new Date();
  return deps.db.transaction(async (tx) => {
    const { token, expiresAt } = await issueRegistrationToken(tx, accountId, node, now);
    await setFormFactor(tx, fleetOf(deps), accountId, node, { form_factor: "ami" }, now);
    return {
      detail: nodeMessages.cloudInitGenerated,
      cloud_init_data: cloudInitData(subject(node), platformAddress(deps), token, expiresAt),
      file_name: `user-data-${node.id}.yaml`,
      expires_at: expiresAt.toISOString(),
    };
  });
}

/** generate-hsn-vpn-config: a fresh key pair; the private key only in the (encrypted) file; the form factor becomes hosted_aws. */
export async function generateVpnConfig(deps: Deps, accountId: string, input: HostedSettings & { node_id: string }): Promise<NodeVpnConfig> {
  const node = await findNode(deps.db, accountId, input.node_id);
  const now = new Date();
  const keys = wireguardKeyPair();
  const text = wireguardConfig(subject(node), input, keys.privateKey, now);
  // wg-quick takes the interface's name from the file's (at most 15 characters of [A-Za-z0-9_=+.-]):
  // "wg-" and 8 random characters, unique among every account's files (the table's key).
  const fileName = `wg-${randomToken(6)}.conf`;
  await deps.db.transaction(async (tx) => {
    await tx.delete(nodeFiles).where(and(eq(nodeFiles.nodeId, node.id), eq(nodeFiles.kind, "vpn")));
    await storeFile(tx, deps, accountId, node.id, "vpn", fileName, Buffer.from(text, "utf8"));
    await setFormFactor(tx, fleetOf(deps), accountId, node, { form_factor: "hosted_aws", ...input }, now);
    await updateNode(tx, node.kind, accountId, node.id, { vpnConfigFile: fileName });
  });
  return { detail: nodeMessages.vpnConfigGenerated, file_name: fileName, public_key: keys.publicKey };
}

/** A stored file of the caller's account (download-node-ova, download-hsn-vpn-config); another's or unknown: 404. */
export async function nodeFile(deps: Deps, accountId: string, fileName: string, kind: "ova" | "vpn"): Promise<Buffer> {
  const [row] = await deps.db
    .select({ content: nodeFiles.contentEnc })
    .from(nodeFiles)
    .where(and(eq(nodeFiles.accountId, accountId), eq(nodeFiles.fileName, fileName), eq(nodeFiles.kind, kind)))
    .limit(1);
  if (!row) throw notFound("File not found");
  return openSecret(key(deps), row.content);
}

/**
 * register-node: the node presents its token. One UPDATE claims an unused, unexpired token of that
 * node (so concurrent presentations register once); the node is registered from now.
 */
export async function registerNode(deps: Deps, nodeId: string, token: string, now = new Date()): Promise<NodeRegistered> {
  return deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(nodeRegistrationTokens)
      .set({ usedAt: now })
      .where(and(eq(nodeRegistrationTokens.tokenHash, sha256(token)), eq(nodeRegistrationTokens.nodeId, nodeId), isNull(nodeRegistrationTokens.usedAt), gt(nodeRegistrationTokens.expiresAt, now)))
      .returning({ kind: nodeRegistrationTokens.nodeKind, accountId: nodeRegistrationTokens.accountId });
    if (!claimed) throw new ApiError(401, "Registration token is invalid, used or expired.");
    const t = sql.identifier(claimed.kind === "service_node" ? "service_nodes" : "endpoint_nodes");
    const id = sql.identifier(claimed.kind === "service_node" ? "service_node_id" : "ep_node_id");
    const at = now.toISOString();
    const [row] = await execRows<{ registered_at: string | Date | null }>(
      tx,
      sql`update ${t} set registered_at = coalesce(registered_at, ${at}::timestamptz), registers_at = least(coalesce(registers_at, ${at}::timestamptz), ${at}::timestamptz)
          where ${id} = ${nodeId} returning registered_at`,
    );
    if (!row?.registered_at) throw notFound("Node not found");
    return { detail: nodeMessages.nodeRegistered, node_id: nodeId, node_kind: claimed.kind, registered_at: new Date(row.registered_at).toISOString() };
  });
}
