// Types of ./observe.mjs for the TypeScript modules that use it (app/lib, platform/).
import type { Logger } from "pino";
import type { Meter, Span } from "@opentelemetry/api";
import type { ScopeMetrics } from "@opentelemetry/sdk-metrics";

export interface ObserveConfig {
  logLevel: string;
  metricsPort: number | null;
  metricsHost: string | undefined;
  drainTimeoutMs: number;
  tracing: boolean;
}

export type GaugeValue = number | { value: number; attributes?: Record<string, string | number | boolean> }[];

export interface Observe {
  tier: string;
  config: ObserveConfig;
  logger: Logger;
  meter: Meter;
  runWithRequest<T>(requestId: string, fn: () => T): T;
  requestId(): string | undefined;
  recordRequest(route: string, method: string, status: number, seconds: number): void;
  streamOpened(): () => void;
  registerGauge(name: string, description: string, read: () => GaugeValue | Promise<GaugeValue>, unit?: string): void;
  serverSpan<T>(name: string, headers: Headers | Record<string, string | string[] | undefined> | null, fn: (span: Span | undefined) => Promise<T>): Promise<T>;
  outgoingHeaders<H extends Record<string, string>>(headers: H): H;
  clientSpan<T>(name: string, fn: () => Promise<T>): Promise<T>;
  collectForParent(): Promise<ScopeMetrics[]>;
  addMetricSource(source: () => Promise<ScopeMetrics[]>): void;
  metricsPort(): number | null;
  shutdown(): Promise<void>;
}

export function observeConfigFromEnv(env?: NodeJS.ProcessEnv): ObserveConfig;
export function observe(tier?: "console" | "platform"): Observe;
export function scrubText(text: string): string;
export function validRequestId(value: unknown): value is string;
export function newRequestId(): string;
export function exitOnFatal(shutdown: (reason: string) => Promise<unknown> | unknown, logger?: Logger): void;
