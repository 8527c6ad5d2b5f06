// Types of what the tests take from the benches' helpers (lib.mjs).
export declare const DAEMON_NODE_FLAGS: readonly string[];
export declare const DAEMON_ENV: Readonly<Record<string, string>>;
export declare const CHROMIUM: string;
export declare const CHROMIUM_FLAGS: readonly string[];
