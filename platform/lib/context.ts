import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Db } from "../db/client.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { PlatformConfig } from "./config.ts";
import type { FleetRuntime } from "../fleet/runtime.ts";
import type { JobQueue } from "../jobs/queue.ts";
import { rememberIn, type Remember } from "./auth.ts";
import { clientAddress } from "./client.ts";
import { ApiError } from "./errors.ts";

export interface PlatformDeps {
  db: Db;
  dbKind: "pglite" | "postgres";
  mailer: Mailer;
  config: PlatformConfig;
  /** The simulated provider network with its clock and event bus (absent in unit tests: use fleetOf(deps)). */
  fleet?: FleetRuntime;
  /** The job queue (PCAP analyses are enqueued on it); absent in unit tests that do not use it. */
  jobs?: JobQueue;
  /** Set when the instance drains (SIGTERM, a fatal error): readiness fails first. */
  draining?: boolean;
}

/** Who is calling: resolved from the bearer token by the auth middleware. */
export interface Caller {
  accountId: string;
  accountUsername: string;
  iamUserId: string | null;
  iamUsername: string | null;
  /** "owner" for the account itself; the IAM role otherwise. */
  role: "owner" | "admin" | "readonly";
  sessionType: "account" | "iam_user";
  tokenHash: string;
}

/** `cacheEpoch`: the database's cache epoch read with the caller's token (shared read cache, lib/auth.ts). */
export type Env = { Variables: { deps: PlatformDeps; caller: Caller; cacheEpoch?: string; /** A POST that changes nothing (CallSpec.reads): not in the change log. */ notAChange?: true; /** X-Request-Id (server/observe.mjs; the middleware in app.ts). */ requestId?: string } };
export type Ctx = Context<Env>;

export function caller(c: Ctx): Caller {
  const who = c.get("caller");
  if (!who) throw new ApiError(401, "Not authenticated");
  return who;
}

/** Readonly IAM users may read everything and change nothing. */
export function requireWriter(c: Ctx): Caller {
  const who = caller(c);
  if (who.role === "readonly") throw new ApiError(403, "Your IAM role is readonly: you cannot make changes.");
  return who;
}

/** Billing and account deletion belong to the account owner. */
export function requireOwner(c: Ctx): Caller {
  const who = caller(c);
  if (who.sessionType !== "account") throw new ApiError(403, "Only the account owner can do this.");
  return who;
}

/** Readonly IAM users get 403 on mutating calls, before their body is even validated. */
export const writerOnly: import("hono").MiddlewareHandler<Env> = async (c, next) => {
  requireWriter(c);
  await next();
};

/** Calls of the account owner's own session (billing, account deletion, the owner's profile): 403 for IAM users, before validation. */
export const ownerOnly: import("hono").MiddlewareHandler<Env> = async (c, next) => {
  requireOwner(c);
  await next();
};

/*
 * The two handler kinds most calls are: "read the caller, take the validated query, ask the domain,
 * answer its JSON" and "a writer, the validated body, the domain's change, answer `{detail}`".
 * One each, so every such call reads, checks and answers the same way. The call comes first so its
 * query/body type the domain function's argument:
 *
 *   app.openapi(detailRoute, answerQuery(detailRoute, (deps, who, q) => ticketDetail(deps.db, who.accountId, q.ticket_id)));
 *   app.openapi(removeRoute, answerDetail(removeRoute, (deps, who, b) => removeEndpoint(deps.db, who.accountId, b.ep_id), "Endpoint removed."));
 *   app.openapi(createRoute, answerChange(createRoute, (deps, who, b) => createContact(deps.db, who.accountId, b), (id) => ({ contact_id: id, detail: "…" })));
 */
type QueryOf<C> = C extends { request: { query: infer Q extends z.ZodType } } ? z.output<Q> : Record<never, never>;
type BodyOf<C> = C extends { request: { body: { content: { "application/json": { schema: infer B extends z.ZodType } } } } } ? z.output<B> : never;
type QueryCtx<Q> = Context<Env, string, { out: { query: Q } }>;
type JsonCtx<B> = Context<Env, string, { out: { json: B } }>;

/**
 * A read by any signed-in caller: the domain's answer to the validated query, JSON 200. `remember`
 * is the read cache for the stored half of the answer (lib/auth.ts Remember), for a read that
 * passes it on.
 */
export const answerQuery =
  <C, R>(_call: C, read: (deps: PlatformDeps, who: Caller, query: QueryOf<C>, remember: Remember) => Promise<R>) =>
  async (c: QueryCtx<QueryOf<C>>) =>
    c.json(await read(c.get("deps"), caller(c), c.req.valid("query"), rememberIn(c)), 200);

/** A change by a writer (readonly IAM users: 403): the domain's change with the validated body; answers what `answer` makes of its result. */
export const answerChange =
  <C, R, A>(_call: C, act: (deps: PlatformDeps, who: Caller, body: BodyOf<C>) => Promise<R>, answer: (result: R, body: BodyOf<C>) => A) =>
  async (c: JsonCtx<BodyOf<C>>) => {
    const who = requireWriter(c);
    const body = c.req.valid("json");
    return c.json(answer(await act(c.get("deps"), who, body), body), 200);
  };

/**
 * A public change (no token: register, the password links): the domain's change with the validated
 * body and the caller's address (lib/client.ts, for the abuse limits), answering `{detail}`.
 */
export const answerPublic =
  <C>(_call: C, act: (deps: PlatformDeps, body: BodyOf<C>, client: string | null) => Promise<unknown>, detail: string) =>
  async (c: JsonCtx<BodyOf<C>>) => {
    await act(c.get("deps"), c.req.valid("json"), clientAddress(c));
    return c.json({ detail }, 200);
  };

/** The same change answering `{detail}` (the message, or the message for that body). */
export const answerDetail = <C>(call: C, act: (deps: PlatformDeps, who: Caller, body: BodyOf<C>) => Promise<unknown>, detail: string | ((body: BodyOf<C>) => string)) =>
  answerChange(call, act, (_result, body) => ({ detail: typeof detail === "string" ? detail : detail(body) }));
