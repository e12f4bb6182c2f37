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
  log?: false | ((entry: AccessLogEntry) => void);
  /** Answers /readyz (and /livez) when given. */
  health?: { ready(): Promise<{ ok: boolean; checks: Record<string, unknown> }> } | null;
  origin?: (req: http.IncomingMessage) => string;
  /** The hops whose X-Forwarded-For, X-Request-Id and traceparent are believed (TRUST_PROXY's form; default: TRUST_PROXY, else `loopback`). */
  trustProxy?: string;
}): ConsoleServer;

/** One access-log entry: what the console's log line of a request holds. */
export interface AccessLogEntry {
  method: string;
  url: string;
  status: number;
  bytes: number | string | null;
  ms: number;
  request_id: string;
}

export interface ConsoleServer extends http.Server {
  /** Stops accepting connections; resolves true once the requests under way are answered, false after `ms`. */
  drain(ms: number): Promise<boolean>;
  /** False while draining, else what `health.ready` says. */
  ready(): Promise<{ ok: boolean; checks: Record<string, unknown> }>;
}

/** The route a request is counted under in the metrics (ids as `:id`, static files and 404s together). */
export declare function metricRoute(pathname: string, status: number, isStatic: boolean): string;

export declare const DRAIN_MAX: number;

