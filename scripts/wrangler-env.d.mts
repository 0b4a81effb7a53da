export declare const root: string;
export declare const wranglerBin: string;
export declare function wranglerEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
