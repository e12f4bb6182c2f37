/** Types of tests/stripe-standin.mjs (a plain module so scripts/e2e-server.mjs can start it too). */
export interface StripeStandin {
  url: string;
  port: number;
  requests: Array<{ method: string; path: string; body: Record<string, unknown>; idempotencyKey: string | null }>;
  failNext(opts?: { message?: string; code?: string; decline_code?: string }): void;
  reset(): void;
  setLatency(ms: number): void;
  subscriptions(accountId?: string): Array<{ id: string; status: string; customer: string; metadata: Record<string, string> }>;
  customers(accountId?: string): Array<{ id: string; metadata?: Record<string, string> }>;
  close(): Promise<void>;
}
export function startStripeStandin(opts?: { port?: number; host?: string }): Promise<StripeStandin>;
export function parseStripeForm(text: string): Record<string, any>;
