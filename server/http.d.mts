import type http from "node:http";

export interface StaticRoot {
  dir: string;
  cacheControl: string;
  /** A folder (url path) whose files never change: cached for a year, immutable. */
  immutablePrefix?: string;
}

export declare const IN_MEMORY_MAX: number;

export declare function createConsoleServer(options: {
  handler: (request: Request) => Response | Promise<Response>;
  statics?: StaticRoot[];
  log?: false | ((line: string) => void);
  origin?: (req: http.IncomingMessage) => string;
  /** The hops whose X-Forwarded-For is believed (TRUST_PROXY's form; default: TRUST_PROXY, else `loopback`). */
  trustProxy?: string;
}): ConsoleServer;

export interface ConsoleServer extends http.Server {
  /** Stops accepting connections; resolves true once the requests under way are answered, false after `ms`. */
  drain(ms: number): Promise<boolean>;
}

export declare const DRAIN_MAX: number;

/** Logs uncaught exceptions and unhandled rejections instead of exiting (server.mjs). */
export declare function keepServingOnUncaught(logError?: (...args: unknown[]) => void): void;
