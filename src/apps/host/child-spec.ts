/**
 * What one run of an app is given and what it gives back: the spec and options of a child, the
 * hooks the supervisor serves it through, and how it ended.
 */
import { constants as osConstants } from 'node:os';
import type { AppCallArgs } from '../wire/protocol.js';
import type { RpcError } from '../wire/wire.js';
import type { AppChild } from './child.js';
import type { Lent } from './lent-packages.js';
import type { ProcessLimits, Sandbox } from './sandbox.js';

export interface ChildOptions {
  heapMb: number;
  /** From fork to onInit resolved. */
  startTimeoutMs: number;
  /** How long onUninit may take before SIGTERM. */
  stopTimeoutMs: number;
  /** From SIGTERM to SIGKILL. */
  killGraceMs: number;
  /** Default timeout of the hub's calls into the app (gc, autocomplete, ping). */
  callTimeoutMs: number;
  /** Calls from one app the hub serves at once; more are refused with `busy`. */
  maxInFlight: number;
}

/** Hub messages an app may leave unread before it is stopped (a stuck app stops reading). */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** Running apps get this nice level, so a busy app yields the CPU to the hub (no privilege needed). */
export const APP_NICE = 10;
export interface ChildSpec {
  id: string;
  version: string;
  /** The app's folder (read-only for the app). */
  dir: string;
  /** The one folder the app may write. */
  userdata: string;
  /** Extra paths the app may read (the SDK's link in the apps folder, sensor files it was granted). */
  readPaths: readonly string[];
  /** How apps are contained on this hub, and this app's share of it. */
  sandbox: Sandbox;
  /** Whether the app shares the host's network (in namespaces; the permission model cannot stop it). */
  network: boolean;
  limits: ProcessLimits;
  /** Quota of the userdata folder, MiB. */
  diskMb: number;
  /** Free space of the data filesystem, MiB, below which the app may not grow. */
  diskFloorMb: number;
  /** `<apps-dir>/package.json` (apps without their own are CommonJS) and the SDK link beside it. */
  appsPackage: string;
  sdkLink: string;
  /** The libraries the hub lends apps, linked beside the SDK link (lent-packages.ts). */
  lent: readonly Lent[];
  /**
   * What init carries, taken when init is sent: the state the app copies (settings, language,
   * location) is current as of that moment, and every change after it arrives as an event.
   */
  init(): AppCallArgs<'init'>;
}

export interface ChildHooks {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** Serves a call the app made through its SDK. */
  dispatch(method: string, args: unknown): Promise<unknown>;
  /** The child exists (before it has started): events may go to it from now on. */
  spawned?(child: AppChild): void;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * How node ended, from bubblewrap's exit: bubblewrap exits with node's code, or 128 + the signal
 * that ended it, so a crash reads the same contained or not (SIGABRT at a heap limit, SIGKILL).
 */
export function nodeExit(code: number | null): ChildExit {
  if (code === null || code <= 128) return { code, signal: null };
  const name = Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0];
  return name ? { code: null, signal: name as NodeJS.Signals } : { code, signal: null };
}

/** Why a start failed, with how the child ended (it is always gone when this is thrown). */
export class StartError extends Error {
  constructor(
    readonly reason: RpcError,
    readonly exit: ChildExit,
  ) {
    super(reason.message);
    this.name = 'StartError';
  }

  /** True when the child ended by itself (crash, heap limit) rather than being killed by us. */
  get diedOnItsOwn(): boolean {
    return this.reason.code === 'closed';
  }
}
