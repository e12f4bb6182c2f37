import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSecret, sealSecret, secretsKeys } from "./node-files-crypto.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-node-secrets-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const oldKey = "a".repeat(64);
const newKey = "a passphrase of thirty-two characters or more";

describe("the nodes' secrets key", () => {
  it("is shared by instances given NODE_SECRETS_KEY: one opens what another sealed", () => {
    const sealed = sealSecret(secretsKeys({ dataDir: path.join(dir, "a"), nodeSecretsKey: oldKey })[0]!, "wireguard private key");
    expect(openSecret(secretsKeys({ dataDir: path.join(dir, "b"), nodeSecretsKey: oldKey }), sealed).toString()).toBe("wireguard private key");
    // Without it each data directory has its own key: another instance cannot open it.
    const own = sealSecret(secretsKeys({ dataDir: path.join(dir, "c") })[0]!, "x");
    expect(() => openSecret(secretsKeys({ dataDir: path.join(dir, "d") }), own)).toThrow();
  });

  it("rotates: new,old seals with the new key and opens what either sealed", () => {
    const before = sealSecret(secretsKeys({ dataDir: dir, nodeSecretsKey: oldKey })[0]!, "sealed before");
    const rotating = secretsKeys({ dataDir: dir, nodeSecretsKey: `${newKey},${oldKey}` });
    expect(openSecret(rotating, before).toString()).toBe("sealed before");
    const after = sealSecret(rotating[0]!, "sealed after");
    expect(openSecret(secretsKeys({ dataDir: dir, nodeSecretsKey: newKey }), after).toString()).toBe("sealed after");
    expect(() => openSecret(secretsKeys({ dataDir: dir, nodeSecretsKey: oldKey }), after)).toThrow();
  });
});
