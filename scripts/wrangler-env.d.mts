export declare const root: string;
export declare const wranglerBin: string;
export declare function wranglerEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
export declare function wranglerDevArgs(port: string, vars: readonly string[], extra?: readonly string[]): string[];
