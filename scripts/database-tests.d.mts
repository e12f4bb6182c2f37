export declare function vitestFiles(cwd?: string): string[];
export declare function usesTestDatabase(text: string): boolean;
export declare function databaseTestFiles(cwd?: string): string[];
export declare function alwaysOnPostgres(text: string): boolean;
