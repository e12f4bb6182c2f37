import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildDockerfile, DockerfileStepError, imagePath, startImage } from "./dockerfile-steps.mjs";

// The Dockerfile steps on small build contexts made here: a package whose postinstall script reads a
// file of its own (the project's has no postinstall since 2026-12-04; a Dockerfile that runs npm ci
// before what an install script reads must still fail here as in docker build). The project's own
// Dockerfile is built and started by tests/docker/image.test.ts.

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folder(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `linkwise-${name}-`));
  folders.push(dir);
  return dir;
}

/** A build context: a package with no dependency whose postinstall writes installed.txt from scripts/ and patches/. */
function context(files: Record<string, string> = {}): string {
  const dir = folder("context");
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const pkg = { name: "steps", version: "1.0.0", private: true, scripts: { postinstall: "node scripts/postinstall.mjs" } };
  write("package.json", JSON.stringify(pkg, null, 2));
  write(
    "package-lock.json",
    JSON.stringify({ name: "steps", version: "1.0.0", lockfileVersion: 3, requires: true, packages: { "": { name: "steps", version: "1.0.0" } } }, null, 2),
  );
  write("scripts/postinstall.mjs", 'import fs from "node:fs";\nfs.writeFileSync("installed.txt", fs.readFileSync("patches/note.txt", "utf8"));\n');
  write("patches/note.txt", "patched");
  write("server.mjs", 'console.log("served");\n');
  write(".dockerignore", "data\nsecret.env\n");
  write("data/db/PG_VERSION", "16");
  write("secret.env", "SESSION_SECRET=x");
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  return dir;
}

const inOrder = `FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/ scripts/
COPY patches/ patches/
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .

FROM node:24-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/installed.txt /app/server.mjs ./
USER 1000:1000
CMD ["node", "server.mjs"]
`;

describe("the Dockerfile's steps, performed in an empty folder", () => {
  it("build a stage in order, copy from it what the last stage names, and start the result", async () => {
    const image = await buildDockerfile({ context: context(), text: inOrder, workDir: folder("work") });
    expect(fs.readFileSync(imagePath(image, "installed.txt"), "utf8")).toBe("patched");
    // Only what the last stage copied: not the build stage's scripts, package files or node_modules.
    expect(fs.readdirSync(imagePath(image, ".")).sort()).toEqual(["installed.txt", "server.mjs"]);
    expect(image.config.user).toBe("1000:1000");
    expect(image.env.DATA_DIR).toBe("/app/data");

    const started = startImage(image);
    const code = await new Promise((resolve) => started.child.on("close", resolve));
    expect(code).toBe(0);
    expect(started.output()).toContain("served");
  });

  it("fail when npm ci runs before the files its postinstall script reads are copied", async () => {
    const outOfOrder = inOrder.replace("COPY scripts/ scripts/\nCOPY patches/ patches/\nRUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund\n", "RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund\nCOPY scripts/ scripts/\nCOPY patches/ patches/\n");
    expect(outOfOrder).not.toBe(inOrder);
    const built = buildDockerfile({ context: context(), text: outOfOrder, workDir: folder("work") });
    await expect(built).rejects.toThrow(DockerfileStepError);
    await expect(built).rejects.toThrow(/line 4, RUN --mount=type=cache,target=\/root\/.npm npm ci[\s\S]*MODULE_NOT_FOUND/);
  });

  it("leave out what .dockerignore names: COPY . . brings no data/ and no secret", async () => {
    const image = await buildDockerfile({
      context: context(),
      text: "FROM node:24-bookworm-slim\nWORKDIR /app\nCOPY . .\n",
      workDir: folder("work"),
    });
    expect(fs.existsSync(imagePath(image, "server.mjs"))).toBe(true);
    expect(fs.existsSync(imagePath(image, "data"))).toBe(false);
    expect(fs.existsSync(imagePath(image, "secret.env"))).toBe(false);
  });

  it("fail a COPY of what the context leaves out, or of what an earlier stage does not hold", async () => {
    await expect(
      buildDockerfile({ context: context(), text: "FROM node:24-bookworm-slim\nWORKDIR /app\nCOPY secret.env ./\n", workDir: folder("work") }),
    ).rejects.toThrow(/COPY secret.env .*not in the build context/);
    await expect(
      buildDockerfile({
        context: context(),
        text: "FROM node:24-bookworm-slim AS build\nWORKDIR /app\nFROM node:24-bookworm-slim\nCOPY --from=build /app/build ./build\n",
        workDir: folder("work"),
      }),
    ).rejects.toThrow(/\/app\/build is not in stage build/);
  });

  it("refuse a RUN that names an absolute path, a base image other than Node's, and an instruction it does not know", async () => {
    const dockerfile = (text: string) => buildDockerfile({ context: context(), text, workDir: folder("work") });
    await expect(dockerfile("FROM node:24-bookworm-slim\nRUN mkdir -p /data\n")).rejects.toThrow(/absolute path/);
    await expect(dockerfile("FROM debian:bookworm-slim\n")).rejects.toThrow(/only node:N/);
    await expect(dockerfile("FROM node:20-bookworm-slim\n")).rejects.toThrow(/the image's Node is 20, this test runs on Node 24/);
    await expect(dockerfile("FROM node:24-bookworm-slim\nADD https://example.com/x ./\n")).rejects.toThrow(/ADD is not supported/);
    await expect(dockerfile("FROM node:24-bookworm-slim\nRUN --network=none true\n")).rejects.toThrow(/RUN --network is not supported/);
  });
});
