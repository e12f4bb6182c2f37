/** An address as the tiers compare it (no brackets or zone, IPv4-mapped IPv6 as IPv4); null if it is none. */
export declare function normalizeAddress(value: unknown): string | null;
/** TRUST_PROXY's hops (default `loopback`) as a test; throws, naming the variable, on a malformed value. */
export declare function parseTrustProxy(value: string | undefined, name?: string): (address: string) => boolean;
/** The client's address from the peer (null: this process's own console) and X-Forwarded-For. */
export declare function resolveClientAddress(peer: string | null, forwardedFor: string | null | undefined, trusted: (address: string) => boolean): string | null;
