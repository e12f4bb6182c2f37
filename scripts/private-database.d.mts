export interface PrivateDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}
export declare function createPrivateDatabase(serverUrl: string, prefix: string): Promise<PrivateDatabase>;
