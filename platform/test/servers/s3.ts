import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// why: s3rver ships no types; its constructor and run/close are all these tests use.
// @ts-expect-error -- no declaration file
import S3rver from "s3rver";

/**
 * A real S3-compatible server for the tests (s3rver from npm: the S3 REST API over HTTP, objects
 * on disk), on a free port with one bucket. Issue 27 item 20: the store is tested against a
 * server, not a scripted fake of the SDK's commands.
 */
export async function startS3Server(bucket = "pcaps", configs: string[] = []) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-s3rver-"));
  // `configs`: the bucket's XML configurations (a CORS rule for a browser on another origin).
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs }] });
  const address = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    /** S3ObjectStore settings for it (s3rver's fixed credentials). */
    settings: { endpoint, bucket, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true },
    /** The objects on the server's disk (what a DELETE removed is gone from here). */
    directory,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
