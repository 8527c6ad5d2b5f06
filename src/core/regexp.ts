/** A string matched as itself inside a RegExp: every character RegExp gives a meaning escaped. */
export const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
