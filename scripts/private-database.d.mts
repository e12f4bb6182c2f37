export interface PrivateDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}
/** Whether the PostgreSQL server of `serverUrl` answers (within 3 s). */
export declare function serverReachable(serverUrl: string): Promise<boolean>;
export declare function createPrivateDatabase(serverUrl: string, prefix: string): Promise<PrivateDatabase>;
export declare const ABANDONED_MS: number;
/** When the database `name` of `prefix` was made (ms since the epoch), or null for a name not of that form. */
export declare function madeAt(name: string, prefix: string): number | null;
/** Drops the databases of `prefix` made more than `olderThanMs` ago; answers their names. */
export declare function dropAbandoned(serverUrl: string, prefix: string, olderThanMs?: number, now?: number): Promise<string[]>;
