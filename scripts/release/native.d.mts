import type { Target } from './targets.mjs';
export function cacheDir(): string;
export function nodeBuild(target: Target, cache?: string): string;
export function nodeAbi(target: Target, cache?: string): string;
export function sqliteAddon(target: Target, options: { root: string; elfArch: (file: string) => string | null; cache?: string }): string;
export function addonCacheFile(target: Target, options: { root: string; cache?: string }): string;
