/**
 * Keeps one app running: starts its child, watches it (usage samples, liveness pings), and
 * after a crash restarts it with exponential backoff, giving up after repeated crashes in a
 * window (stopped + crashed until someone enables or restarts it). Owns the app's stdout and
 * stderr rings. Reports every change of its fields through `onChange`.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { AppCallArgs, AppCallMethod, AppCallResult, AppEvent } from '../wire/protocol.js';
import { RpcError } from '../wire/wire.js';
import { AppWatch, diskProblem } from './app-watch.js';
import { AppChild } from './child.js';
import { type ChildExit, type ChildOptions, type ChildSpec, StartError } from './child-spec.js';
import { LogRing } from './ring.js';
import type { StartGate } from './start-gate.js';
import type { Usage } from './usage.js';

export type AppState = 'stopped' | 'starting' | 'running' | 'stopping';

/** The run-time fields of an App object. */
export interface RunState {
  state: AppState;
  ready: boolean;
  crashed: boolean;
  crashedMessage: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  exitCount: number;
  usage: Usage;
}

export interface SupervisorOptions extends ChildOptions {
  /** First restart delay; doubles per crash in the window. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** This many crashes within crashWindowMs and the supervisor gives up. */
  crashLimit: number;
  crashWindowMs: number;
  usageIntervalMs: number;
  /** 0 turns liveness pings off. */
  pingIntervalMs: number;
  /** An app above this share of one core (percent) for longer than cpuBudgetMs is restarted. */
  cpuBudgetPercent: number;
  cpuBudgetMs: number;
  /** How often an app's userdata is measured against its quota; 0 turns it off. */
  diskIntervalMs: number;
  /** How many apps of the hub start at once (start-gate.ts): one a core. */
  startsAtOnce: number;
}

export const DEFAULT_SUPERVISOR_OPTIONS: Omit<SupervisorOptions, 'heapMb'> = {
  startTimeoutMs: 15_000,
  stopTimeoutMs: 5_000,
  killGraceMs: 2_000,
  callTimeoutMs: 5_000,
  maxInFlight: 64,
  backoffBaseMs: 500,
  backoffMaxMs: 60_000,
  crashLimit: 5,
  crashWindowMs: 10 * 60_000,
  usageIntervalMs: 5_000,
  pingIntervalMs: 15_000,
  cpuBudgetPercent: 90,
  cpuBudgetMs: 60_000,
  diskIntervalMs: 15_000,
  startsAtOnce: availableParallelism(),
};

export interface CrashReport {
  at: string;
  message: string;
  exitCode: number | null;
  exitSignal: string | null;
}

export interface SupervisorHooks {
  onChange(state: Readonly<RunState>): void;
  /** The process the hub spawned for the app (recorded so the next hub can end a leftover). */
  spawned?(pid: number): void;
  /** A crash, with the crash times that count for the backoff (kept across hub restarts). */
  onCrash(report: CrashReport, crashes: readonly number[]): void;
  dispatch(method: string, args: unknown): Promise<unknown>;
  /** Current spec (language may have changed since the last start). */
  spec(): ChildSpec;
  /** Shared by every app of the hub: a start waits its turn there (start-gate.ts). */
  gate: StartGate;
}

/** A sentence for crashedMessage from how the child ended and what it last wrote to stderr. */
export function crashMessage(exit: ChildExit, stderrTail: string, heapMb: number, limits?: { memoryMb: number; addressMb: number }): string {
  const ended = exit.signal ?? `exit code ${exit.code}`;
  if (/Reached heap limit|JavaScript heap out of memory/.test(stderrTail)) {
    return `the app ran out of memory: its JavaScript heap reached its limit of ${heapMb} MiB (${ended}); see its stderr`;
  }
  if (limits && /Array buffer allocation failed|Fatal process out of memory|Allocation failed - process out of memory/.test(stderrTail)) {
    return `the app ran out of memory: it mapped ${limits.addressMb} MiB, the most address space an app with a memory ceiling of ${limits.memoryMb} MiB may map (${ended}); see its stderr`;
  }
  const lines = stderrTail
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = [...lines].reverse().find((l) => /^(\w*Error|Uncaught|\[?Error)/.test(l) || /Error:/.test(l));
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return error ? `the app ${how}: ${error.slice(0, 500)}` : `the app ${how}`;
}

export class AppSupervisor {
  readonly stdout: LogRing;
  readonly stderr: LogRing;
  private child: AppChild | undefined;
  /** The child while it starts (onInit running): it already receives events. */
  private starting: AppChild | undefined;
  private run: RunState = {
    state: 'stopped',
    ready: false,
    crashed: false,
    crashedMessage: null,
    exitCode: null,
    exitSignal: null,
    exitCount: 0,
    usage: { cpu: 0, mem: 0 },
  };
  private crashes: number[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private watcher: AppWatch | undefined;
  /** Why the hub ended the running app (a limit it broke), for its crash log; null: it ended by itself. */
  private cause: string | null = null;
  /** The memory limits of the current run, for the crash message. */
  private memory: { memoryMb: number; addressMb: number } | undefined;
  /** Whether the app should be running: false after stop(), so an exit is not a crash. */
  private wanted = false;
  /** Serialises start/stop/restart so concurrent requests cannot fork twice. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Aborts a start still waiting for its turn at the gate (a stop must not wait behind it). */
  private turn: AbortController | undefined;

  constructor(
    readonly id: string,
    logDir: string,
    private readonly opts: SupervisorOptions,
    private readonly hooks: SupervisorHooks,
  ) {
    this.stdout = new LogRing(join(logDir, 'stdout.log'));
    this.stderr = new LogRing(join(logDir, 'stderr.log'));
  }

  get state(): Readonly<RunState> {
    return this.run;
  }

  get pid(): number | undefined {
    return this.child?.running ? this.child.pid : undefined;
  }

  /** Loads the rings a previous hub run left on disk. */
  async load(): Promise<void> {
    await Promise.all([this.stdout.load(), this.stderr.load()]);
  }

  private set(patch: Partial<RunState>): void {
    this.run = { ...this.run, ...patch };
    this.hooks.onChange(this.run);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Starts the app (no-op when running). A broken manifest is the caller's check. */
  start(): Promise<void> {
    this.wanted = true;
    return this.serial(() => this.spawn());
  }

  /**
   * The first start after a hub restart, for an app that crashed lately (`crashes`, from its
   * record): it waits out its backoff, or stays stopped when it had given up, as if the hub had
   * not restarted; an app without recent crashes starts at once.
   */
  resume(crashes: readonly number[]): Promise<void> {
    const now = Date.now();
    this.crashes = crashes.filter((t) => now - t < this.opts.crashWindowMs && t <= now);
    if (this.crashes.length >= this.opts.crashLimit) {
      const minutes = Math.round(this.opts.crashWindowMs / 60_000);
      this.hold(`the app crashed ${this.crashes.length} times within ${minutes} min (before the hub restarted); not restarting until enabled or restarted`);
      return Promise.resolve();
    }
    if (this.crashes.length === 0) return this.start();
    this.wanted = true;
    const wait = Math.max(0, this.backoff() - (now - this.crashes[this.crashes.length - 1]!));
    this.stderr.push(`hearth: the app crashed lately; starting it after its backoff, in ${wait} ms\n`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.serial(() => this.spawn()).catch((err: unknown) => this.internal(err));
    }, wait);
    this.restartTimer.unref();
    return Promise.resolve();
  }

  /** The delay before the next start, from the crashes in the window. */
  private backoff(): number {
    return Math.min(this.opts.backoffMaxMs, this.opts.backoffBaseMs * 2 ** Math.max(0, this.crashes.length - 1));
  }

  /** Stops the app and keeps it stopped (no restart). `limits`: see AppChild.stop. */
  stop(limits?: { uninitMs?: number; graceMs?: number }): Promise<void> {
    this.wanted = false;
    this.clearRestart();
    this.turn?.abort();
    return this.serial(() => this.halt(limits));
  }

  /** Stops, forgets the crash history (a person asked for a fresh try), starts. */
  restart(): Promise<void> {
    this.wanted = true;
    this.clearRestart();
    this.crashes = [];
    return this.serial(async () => {
      await this.halt();
      await this.spawn();
    });
  }

  /** Marks the app held in the crashed state without a process (e.g. a broken manifest). */
  hold(message: string): void {
    this.wanted = false;
    this.clearRestart();
    this.turn?.abort();
    const held = (): void => this.set({ state: 'stopped', ready: false, crashed: true, crashedMessage: message });
    if (!this.child) {
      held();
      return;
    }
    // A running app whose folder is now unusable (a restart re-read it) stops first: held means no process.
    void this.serial(async () => {
      await this.halt();
      held();
    }).catch((err: unknown) => this.internal(err));
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async spawn(): Promise<void> {
    if (!this.wanted || this.child?.running) return;
    this.clearRestart();
    this.set({ state: 'starting', ready: false });
    const turn = new AbortController();
    this.turn = turn;
    const release = await this.hooks.gate.enter(turn.signal);
    this.turn = undefined;
    if (!release) return; // stopped while it waited: the stop's halt shows it stopped
    try {
      if (this.wanted) await this.fork();
    } finally {
      release();
    }
  }

  /** Forks the app and waits for its onInit (its turn at the gate is taken). */
  private async fork(): Promise<void> {
    const spec = this.hooks.spec();
    // Over its quota the app would only be stopped again: it stays held until there is room.
    const full = await diskProblem(spec.userdata, spec.diskMb);
    if (full) {
      this.wanted = false;
      const message = `the app cannot start: ${full}; remove files from it (or uninstall with purgeSettings) and enable the app`;
      this.stderr.push(`hearth: ${message}\n`);
      this.set({ state: 'stopped', ready: false, crashed: true, crashedMessage: message });
      return;
    }
    this.cause = null;
    this.memory = { memoryMb: spec.limits.memoryMb, addressMb: spec.limits.addressMb };
    this.stdout.mark(`starting ${this.id}@${spec.version}`);
    this.stderr.mark(`starting ${this.id}@${spec.version}`);
    this.set({ state: 'starting', ready: false });
    let child: AppChild;
    try {
      child = await AppChild.start(spec, this.opts, {
        stdout: (c) => this.stdout.push(c),
        stderr: (c) => this.stderr.push(c),
        dispatch: (method, args) => this.hooks.dispatch(method, args),
        spawned: (c) => {
          this.starting = c;
          if (c.outerPid !== undefined) this.hooks.spawned?.(c.outerPid);
        },
      });
    } catch (err) {
      this.starting = undefined;
      const exit = err instanceof StartError ? err.exit : { code: null, signal: null };
      const message =
        err instanceof StartError && err.diedOnItsOwn
          ? crashMessage(exit, this.stderr.text().slice(-4096), this.opts.heapMb, spec.limits)
          : err instanceof StartError && err.reason.code === 'timeout'
            ? err.message
            : `onInit failed: ${err instanceof Error ? err.message : String(err)}`;
      await this.crashed(exit, message);
      return;
    }
    this.starting = undefined;
    this.child = child;
    this.set({ state: 'running', ready: true, crashed: false, crashedMessage: null });
    this.watch(child, spec);
    void child.exited.then((exit) => this.serial(() => this.onExit(child, exit)).catch((err: unknown) => this.internal(err)));
  }

  private watch(child: AppChild, spec: ChildSpec): void {
    this.watcher = new AppWatch(child, spec.userdata, { memoryMb: spec.limits.memoryMb, diskMb: spec.diskMb, diskFloorMb: spec.diskFloorMb }, this.opts, {
      usage: (u: Usage) => {
        if (child.running && (u.cpu !== this.run.usage.cpu || u.mem !== this.run.usage.mem)) this.set({ usage: u });
      },
      breach: (cause, hold) => {
        if (!child.running) return;
        this.cause = cause;
        if (hold) this.wanted = false;
        this.stderr.push(`hearth: stopping the app: ${cause}\n`);
        child.kill('SIGKILL');
      },
    });
    this.watcher.start();
  }

  private unwatch(): void {
    this.watcher?.stop();
    this.watcher = undefined;
  }

  private async onExit(child: AppChild, exit: ChildExit): Promise<void> {
    if (this.child !== child) return; // an exit halt() already handled
    this.unwatch();
    this.child = undefined;
    const cause = this.cause ?? child.brokenBecause;
    const message = cause ? `the hub stopped the app: ${cause}` : crashMessage(exit, this.stderr.text().slice(-4096), this.opts.heapMb, this.memory);
    await this.crashed(exit, message);
  }

  /**
   * Records a crash in one update of every field (so no observer sees it half-recorded),
   * persists the tails durably, then restarts with backoff or gives up.
   */
  private async crashed(exit: ChildExit, message: string): Promise<void> {
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < this.opts.crashWindowMs), now];
    const giveUp = this.wanted && this.crashes.length >= this.opts.crashLimit;
    if (giveUp) this.wanted = false;
    const minutes = Math.round(this.opts.crashWindowMs / 60_000);
    const shown = giveUp ? `${message} (crashed ${this.crashes.length} times within ${minutes} min; not restarting until enabled or restarted)` : message;
    this.set({
      state: 'stopped',
      ready: false,
      crashed: true,
      crashedMessage: shown,
      exitCode: exit.code,
      exitSignal: exit.signal,
      exitCount: this.run.exitCount + 1,
      usage: { cpu: 0, mem: 0 },
    });
    const delay = this.backoff();
    // The delay is in the crash log, so whoever reads it knows when the next start comes.
    this.stderr.push(`hearth: ${shown}${this.wanted ? ` (restarting in ${delay} ms)` : ''}\n`);
    await Promise.all([this.stdout.flush(true), this.stderr.flush(true)]).catch(() => undefined);
    this.hooks.onCrash({ at: new Date(now).toISOString(), message, exitCode: exit.code, exitSignal: exit.signal }, this.crashes);
    if (!this.wanted) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.serial(() => this.spawn()).catch((err: unknown) => this.internal(err));
    }, delay);
    this.restartTimer.unref();
  }

  private async halt(limits?: { uninitMs?: number; graceMs?: number }): Promise<void> {
    const child = this.child;
    if (!child) {
      if (this.run.state !== 'stopped') this.set({ state: 'stopped', ready: false });
      return;
    }
    this.child = undefined;
    this.unwatch();
    this.set({ state: 'stopping', ready: false });
    const exit = await child.stop(limits);
    await Promise.all([this.stdout.flush(true), this.stderr.flush(true)]).catch(() => undefined);
    this.set({ state: 'stopped', exitCode: exit.code, exitSignal: exit.signal, usage: { cpu: 0, mem: 0 } });
  }

  /** A failure of the supervisor itself (never the app's): recorded, never an unhandled rejection. */
  private internal(err: unknown): void {
    this.stderr.push(`hearth: supervisor error: ${err instanceof Error ? err.message : String(err)}\n`);
  }

  /** Calls into the running app; `not_available` (409-class) when it is not running. */
  call<M extends AppCallMethod>(method: M, args: AppCallArgs<M>, timeoutMs?: number): Promise<AppCallResult<M>> {
    const child = this.child;
    if (!child?.running || !this.run.ready) return Promise.reject(new RpcError('not_running', `app '${this.id}' is not running`));
    return child.call(method, args, timeoutMs);
  }

  /** Tells the app of a change; a starting app hears it too (its init snapshot is older). */
  notify(event: AppEvent): void {
    (this.child ?? this.starting)?.notify(event);
  }
}
