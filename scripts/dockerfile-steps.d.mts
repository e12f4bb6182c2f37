// Types of scripts/dockerfile-steps.mjs, for its tests.
import type { ChildProcess } from "node:child_process";

export interface Image {
  /** The last stage's root folder (the image's "/"). */
  root: string;
  workdir: string;
  env: Record<string, string>;
  config: {
    user?: string;
    stopsignal?: string;
    expose?: string[];
    healthcheck?: { options: Record<string, string | null>; command: string[] } | null;
    entrypoint?: string[];
    cmd?: string[];
  };
  node: string;
}
export declare class DockerfileStepError extends Error {}
export declare function buildDockerfile(options: {
  context: string;
  dockerfile?: string;
  /** The Dockerfile's text, instead of reading `dockerfile`. */
  text?: string;
  workDir: string;
  node?: string;
  log?: (line: string) => void;
  runTimeoutMs?: number;
}): Promise<Image>;
export declare function startImage(image: Image, options?: { command?: string[]; env?: Record<string, string> }): { child: ChildProcess; output(): string };
export declare function healthy(image: Image, options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<boolean>;
export declare function imagePath(image: Image, p: string): string;
