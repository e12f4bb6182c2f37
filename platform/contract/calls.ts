/*
 * Every platform call by its name, as a type (issue 61 item 1): the one declaration each call has
 * (defineCall and its kinds in platform/routes/*.ts: path, method, query, body, answer) seen from
 * the console. The console imports this file with `import type` only, so neither zod nor the
 * platform's modules reach its bundle. `callApi`, `submitForm`, `fetchTablePage` (app/lib/) take a
 * call's name as a key of `PlatformCalls`: a misspelt name, a wrong body field or an answer read
 * wrongly is a type error (app/lib/contract.typecheck-fixture.tsx, checked by `npm run typecheck`).
 */
import type { z } from "zod";
import type { OperationId } from "../lib/openapi.ts";
import type * as account from "../routes/account.ts";
import type * as appServices from "../routes/app-services.ts";
import type * as auth from "../routes/auth.ts";
import type * as availability from "../routes/availability.ts";
import type * as billing from "../routes/billing.ts";
import type * as changeLog from "../routes/change-log.ts";
import type * as contacts from "../routes/contacts.ts";
import type * as cpe from "../routes/cpe.ts";
import type * as dashboard from "../routes/dashboard.ts";
import type * as devices from "../routes/devices.ts";
import type * as endpoints from "../routes/endpoints.ts";
import type * as entities from "../routes/entities.ts";
import type * as health from "../routes/health.ts";
import type * as iam from "../routes/iam.ts";
import type * as metro from "../routes/metro.ts";
import type * as monitoringInsights from "../routes/monitoring-insights.ts";
import type * as monitoring from "../routes/monitoring.ts";
import type * as nodesFiles from "../routes/nodes-files.ts";
import type * as nodesService from "../routes/nodes-service.ts";
import type * as nodes from "../routes/nodes.ts";
import type * as operations from "../routes/operations.ts";
import type * as pcap from "../routes/pcap.ts";
import type * as reports from "../routes/reports.ts";
import type * as support from "../routes/support.ts";
import type * as userAgents from "../routes/user-agents.ts";

/** What defineCall returns, as far as the console reads it. */
interface AnyCall {
  method: "get" | "post" | "put";
  path: string;
  request: object;
  responses: object;
  getRoutingPath(): string;
}

/** The calls a value holds: itself, or (two levels down) the calls in its fields and arrays; zod schemas and functions hold none. */
type CallsIn<T, Depth extends unknown[] = []> = T extends AnyCall
  ? T
  : T extends z.ZodType | ((...args: never[]) => unknown)
    ? never
    : Depth["length"] extends 3
      ? never
      : T extends readonly (infer E)[]
        ? CallsIn<E, [...Depth, unknown]>
        : T extends object
          ? { [K in keyof T]: CallsIn<T[K], [...Depth, unknown]> }[keyof T]
          : never;

type Modules =
  | typeof account
  | typeof appServices
  | typeof auth
  | typeof availability
  | typeof billing
  | typeof changeLog
  | typeof contacts
  | typeof cpe
  | typeof dashboard
  | typeof devices
  | typeof endpoints
  | typeof entities
  | typeof health
  | typeof iam
  | typeof metro
  | typeof monitoringInsights
  | typeof monitoring
  | typeof nodesFiles
  | typeof nodesService
  | typeof nodes
  | typeof operations
  | typeof pcap
  | typeof reports
  | typeof support
  | typeof userAgents;

type AllCalls = CallsIn<Modules> | contacts.ContactListCall | entities.EntityNamesCall;

/** Every platform call, by its name (its operationId: the path without the slash). */
export type PlatformCalls = { [C in AllCalls as OperationId<C["path"]>]: C };
export type CallName = keyof PlatformCalls;

type Json<S> = { "application/json": { schema: S } };

/** What the call takes in its query string (undefined: nothing). */
export type CallQuery<N extends CallName> = N extends CallName ? (PlatformCalls[N]["request"] extends { query: infer Q extends z.ZodType } ? z.input<Q> : undefined) : never;
/** The JSON body the call takes (undefined: none). */
export type CallBody<N extends CallName> = N extends CallName ? (PlatformCalls[N]["request"] extends { body: { content: Json<infer B extends z.ZodType> } } ? z.input<B> : undefined) : never;
type Responses<N extends CallName> = PlatformCalls[N]["responses"];
type JsonOf<R> = R extends { content: Json<infer S extends z.ZodType> } ? z.output<S> : never;
type Success = 200 | 201 | 202;
/** The call's answers on success (JSON: its 200, and a 202 where it declares one); `unknown` for a file or a stream (read raw: callPlatformRaw). */
export type CallAnswer<N extends CallName> = N extends CallName
  ? Responses<N> extends { 200: { content: Json<z.ZodType> } }
    ? { [K in keyof Responses<N> & Success]: JsonOf<Responses<N>[K]> }[keyof Responses<N> & Success]
    : unknown
  : never;

/** The calls the console reads (GET) and the ones it posts (POST). */
export type GetCallName = { [N in CallName]: PlatformCalls[N]["method"] extends "get" ? N : never }[CallName];
export type PostCallName = { [N in CallName]: PlatformCalls[N]["method"] extends "post" ? N : never }[CallName];

/** A list call's page `{items, total}` (its answer given any list parameter) and one row of it. */
export type CallPage<N extends CallName> = Extract<CallAnswer<N>, { items: readonly unknown[]; total: number }>;
export type ListCallName = { [N in GetCallName]: [CallPage<N>] extends [never] ? never : N }[GetCallName];
export type CallRow<N extends ListCallName> = CallPage<N>["items"][number];

// A call whose path is not a literal would make every name valid: refused here.
type Literal<T> = string extends T ? false : true;
export const everyNameIsLiteral: Literal<CallName> = true;
