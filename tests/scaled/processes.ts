import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../../server/node-flags.mjs";

/*
 * The scaled run's processes: platform instances and consoles, each in a process group of its own
 * (what a container is to an orchestrator), so that "kill -9 of an instance" is SIGKILL to its whole
 * group, and nothing it started outlives it. Every group's id is appended to a file that the run's
 * global teardown reads (tests/scaled/global-setup.ts): whatever happens to the test's worker, every
 * process it started is killed at the end.
 */

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** The log file of its standard output and error. */
  log: string;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<string>;
  /** Set once it has ended: the code or the signal. */
  exit?: string;
}

/**
 * What starts one platform instance: what `npm run start:platform` runs (package.json), without npm
 * in between (three fewer processes on a 2-core machine). Its last command is taken: `tsx FILE`
 * (today) runs as node with tsx's loader, `node ARGS` (built entries) as is; a step before it such
 * as `node scripts/ensure-build.mjs &&` is the global set-up's. Read from package.json, not from
 * whether build/ holds a platform entry, so that a stale build of another branch is never run.
 */
export function platformCommand(): { cmd: string; args: string[] } {
  const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
  const script = scripts["start:platform"] ?? "";
  const [tool, ...args] = (script.split("&&").at(-1) ?? "").trim().split(/\s+/);
  if (tool === "tsx") return { cmd: process.execPath, args: ["--import", "tsx", ...args] };
  if (tool === "node") return { cmd: process.execPath, args };
  return { cmd: "npm", args: ["run", "-s", "start:platform"] };
}

/** What starts one console: the production server on the production build (as `npm start` does). */
export function consoleCommand(): { cmd: string; args: string[] } {
  return { cmd: process.execPath, args: [...SERVER_NODE_FLAGS, "server.mjs", "./build/server/index.js"] };
}

export { freePort } from "../../platform/test/ports.ts";

/** The file where this run's process groups are listed for the global teardown. */
const groupsFile = () => path.join(process.env.SCALED_RUN_DIR ?? "", "process-groups");

/** Starts `cmd` in a process group of its own, its output to `<runDir>/<name>.log`. Does not wait. */
export function startProcess(name: string, port: number, command: { cmd: string; args: string[] }, env: Record<string, string>): Instance {
  const runDir = process.env.SCALED_RUN_DIR;
  if (!runDir) throw new Error("SCALED_RUN_DIR is not set: run through playwright.scaled.config.ts");
  const log = path.join(runDir, `${name}.log`);
  const fd = fs.openSync(log, "a");
  const child = spawn(command.cmd, command.args, {
    // detached: setsid(), so the child leads a new process group (killed as one, never by our own signals).
    detached: true,
    stdio: ["ignore", fd, fd],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env, PORT: String(port) },
  });
  fs.closeSync(fd);
  if (child.pid) fs.appendFileSync(groupsFile(), `${child.pid}\n`);
  const instance: Instance = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    log,
    exited: new Promise<string>((resolve) => {
      child.once("exit", (code, signal) => {
        instance.exit = signal ?? `exit code ${code}`;
        resolve(instance.exit);
      });
      child.once("error", (error) => {
        instance.exit = `could not start: ${error.message}`;
        resolve(instance.exit);
      });
    }),
  };
  return instance;
}

/** SIGKILL to the instance's whole process group (kill -9 of a container); resolves once it has ended. */
export async function killHard(instance: Instance): Promise<void> {
  if (instance.child.pid) killGroup(instance.child.pid);
  await instance.exited;
}

/** SIGKILL to a process group; nothing when it is already gone. */
export function killGroup(pgid: number) {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // ESRCH: already gone.
  }
}

/** Kills every process group this run started (the global teardown, and the test's own end). */
export function killAllGroups(file = groupsFile()) {
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const pgid = Number(line.trim());
    if (Number.isInteger(pgid) && pgid > 1) killGroup(pgid);
  }
}

/** The ids of the processes of a process group (from /proc: the group's leader and what it started). */
export function processesOf(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) pids.push(Number(entry));
    } catch {
      // The process ended while we read.
    }
  }
  return pids;
}

/**
 * The socket inode of the TCP connection whose local end is 127.0.0.1:`port` (the client end of a
 * connection to one of the test's servers, whose remote port the server sees), from /proc/net/tcp.
 */
function socketInode(port: number): string | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const [address, p] = f[1]!.split(":");
      // 127.0.0.1 in /proc's little-endian hex, or ::ffff:127.0.0.1 in tcp6.
      if (p === hexPort && (address === "0100007F" || address === "0000000000000000FFFF00000100007F")) return f[9]!;
    }
  }
  return null;
}

/**
 * Which of the instances holds the client end of a connection from 127.0.0.1:`remotePort` (as a
 * test server sees its peer): the platform instance that is sending an e-mail or a webhook now.
 */
export function holderOf(instances: Instance[], remotePort: number): Instance | null {
  const inode = socketInode(remotePort);
  if (!inode) return null;
  const target = `socket:[${inode}]`;
  for (const instance of instances) {
    if (!instance.child.pid || instance.exit) continue;
    for (const pid of processesOf(instance.child.pid)) {
      let fds: string[];
      try {
        fds = fs.readdirSync(`/proc/${pid}/fd`);
      } catch {
        continue;
      }
      for (const fd of fds) {
        try {
          if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return instance;
        } catch {
          // Closed while we read.
        }
      }
    }
  }
  return null;
}

/** The last `lines` lines of an instance's log (for a failure's message). */
export function tail(instance: Instance, lines = 15): string {
  try {
    return fs.readFileSync(instance.log, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
