import path from "node:path";
import type { PlatformDeps } from "../lib/context.ts";
import { LocalObjectStore } from "./local.ts";
import { S3ObjectStore, s3SettingsFromEnv } from "./s3.ts";
import type { ObjectStore } from "./types.ts";

export * from "./types.ts";
export { LocalObjectStore } from "./local.ts";
export { S3ObjectStore, s3SettingsFromEnv, type S3Settings } from "./s3.ts";

/** The upload call of the embedded store (below the platform's /api/v1). */
export const uploadPcapPath = (key: string) => `/api/v1/upload-pcap/${encodeURIComponent(key)}`;

const stores = new WeakMap<PlatformDeps, ObjectStore>();

/**
 * The platform's object store: an S3-compatible bucket when S3_BUCKET (and S3_ENDPOINT,
 * S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) are set, else files under
 * `${dataDir}/objects/` with signed upload URLs on the platform itself. One per platform.
 */
export function objectStore(deps: PlatformDeps, env: NodeJS.ProcessEnv = process.env): ObjectStore {
  let store = stores.get(deps);
  if (!store) {
    // The configuration's S3 settings (checked at start), else the environment's (tests' own platforms).
    const s3 = deps.config.s3 !== undefined ? deps.config.s3 : s3SettingsFromEnv(env);
    store = s3
      ? new S3ObjectStore(s3, { tmpDir: path.join(deps.config.dataDir, "tmp") })
      : new LocalObjectStore({
          root: path.join(deps.config.dataDir, "objects"),
          secretFile: path.join(deps.config.dataDir, "objects-secret"),
          secret: deps.config.objectsSecret,
          uploadUrl: uploadPcapPath,
        });
    stores.set(deps, store);
  }
  return store;
}

/** Replaces the store of a platform (tests). */
export function setObjectStore(deps: PlatformDeps, store: ObjectStore): void {
  stores.set(deps, store);
}
