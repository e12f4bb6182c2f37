export declare const NO_CHROMIUM: string;
export declare function playwrightChromium(): string | undefined;
export declare function findChromium(): { path: string; executable: string | undefined } | undefined;
