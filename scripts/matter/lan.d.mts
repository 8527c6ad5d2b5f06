// Types of the LAN helper (lan.mjs) for the tests.
export interface Lan {
  readonly hubNs: string;
  readonly deviceNs: string;
  /** The hub namespace's address on the link to the caller's namespace. */
  readonly hubAddress: string;
  /** A command run in a namespace: `ip netns exec <ns> ...`. */
  exec(ns: string, command: readonly string[]): string[];
  /** Deletes both namespaces and the veth pairs. */
  close(): void;
}
/** Why this machine cannot make the LAN (not root, no iproute2), or null. */
export declare function lanMissing(): string | null;
export declare function makeLan(): Lan;
