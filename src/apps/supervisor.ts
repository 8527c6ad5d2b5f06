/**
 * Keeps one app running: starts its child, watches it (usage samples, liveness pings), and
 * after a crash restarts it with exponential backoff, giving up after repeated crashes in a
 * window (stopped + crashed until someone enables or restarts it). Owns the app's stdout and
 * stderr rings. Reports every change of its fields through `onChange`.
 */
import { join } from 'node:path';
import { AppChild, StartError, type ChildExit, type ChildOptions, type ChildSpec } from './child.js';
import type { AppCallArgs, AppCallMethod, AppCallResult, AppEvent } from './protocol.js';
import { LogRing } from './ring.js';
import { UsageSampler, type Usage } from './usage.js';
import { RpcError } from './wire.js';

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
};

export interface CrashReport {
  at: string;
  message: string;
  exitCode: number | null;
  exitSignal: string | null;
}

export interface SupervisorHooks {
  onChange(state: Readonly<RunState>): void;
  onCrash(report: CrashReport): void;
  dispatch(method: string, args: unknown): Promise<unknown>;
  /** Current spec (language may have changed since the last start). */
  spec(): ChildSpec;
}

/** A sentence for crashedMessage from how the child ended and what it last wrote to stderr. */
export function crashMessage(exit: ChildExit, stderrTail: string, heapMb: number): string {
  if (/Reached heap limit|JavaScript heap out of memory/.test(stderrTail)) {
    return `the app ran out of memory: it reached its heap limit of ${heapMb} MiB (${exit.signal ?? `exit code ${exit.code}`}); see its stderr`;
  }
  const lines = stderrTail.split('\n').map((l) => l.trim()).filter(Boolean);
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
  private timers: ReturnType<typeof setInterval>[] = [];
  /** Whether the app should be running: false after stop(), so an exit is not a crash. */
  private wanted = false;
  /** Serialises start/stop/restart so concurrent requests cannot fork twice. */
  private queue: Promise<unknown> = Promise.resolve();

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

  /** Stops the app and keeps it stopped (no restart). `limits`: see AppChild.stop. */
  stop(limits?: { uninitMs?: number; graceMs?: number }): Promise<void> {
    this.wanted = false;
    this.clearRestart();
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
    this.set({ state: 'stopped', ready: false, crashed: true, crashedMessage: message });
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async spawn(): Promise<void> {
    if (!this.wanted || this.child?.running) return;
    this.clearRestart();
    const spec = this.hooks.spec();
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
        },
      });
    } catch (err) {
      this.starting = undefined;
      const exit = err instanceof StartError ? err.exit : { code: null, signal: null };
      const message =
        err instanceof StartError && err.diedOnItsOwn
          ? crashMessage(exit, this.stderr.text().slice(-4096), this.opts.heapMb)
          : err instanceof StartError && err.reason.code === 'timeout'
            ? err.message
            : `onInit failed: ${err instanceof Error ? err.message : String(err)}`;
      await this.crashed(exit, message);
      return;
    }
    this.starting = undefined;
    this.child = child;
    this.set({ state: 'running', ready: true, crashed: false, crashedMessage: null });
    this.watch(child);
    void child.exited.then((exit) => this.serial(() => this.onExit(child, exit)).catch((err: unknown) => this.internal(err)));
  }

  private watch(child: AppChild): void {
    const pid = child.pid;
    if (pid !== undefined) {
      const sampler = new UsageSampler(pid);
      const t = setInterval(() => {
        void sampler.sample().then((u) => {
          if (u && child.running && (u.cpu !== this.run.usage.cpu || u.mem !== this.run.usage.mem)) this.set({ usage: u });
        });
      }, this.opts.usageIntervalMs);
      t.unref();
      this.timers.push(t);
      void sampler.sample(); // baseline for the first cpu figure
    }
    if (this.opts.pingIntervalMs > 0) {
      const t = setInterval(() => {
        child.call('ping', {}, this.opts.callTimeoutMs).catch((err: unknown) => {
          if (err instanceof RpcError && err.code === 'timeout' && child.running) {
            this.stderr.push(`hearth: the app did not answer a ping within ${this.opts.callTimeoutMs} ms (event loop blocked); killing it\n`);
            child.kill('SIGKILL');
          }
        });
      }, this.opts.pingIntervalMs);
      t.unref();
      this.timers.push(t);
    }
  }

  private unwatch(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private async onExit(child: AppChild, exit: ChildExit): Promise<void> {
    if (this.child !== child) return; // an exit halt() already handled
    this.unwatch();
    this.child = undefined;
    const message = crashMessage(exit, this.stderr.text().slice(-4096), this.opts.heapMb);
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
    const shown = giveUp
      ? `${message} (crashed ${this.crashes.length} times within ${minutes} min; not restarting until enabled or restarted)`
      : message;
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
    const delay = Math.min(this.opts.backoffMaxMs, this.opts.backoffBaseMs * 2 ** (this.crashes.length - 1));
    // The delay is in the crash log, so whoever reads it knows when the next start comes.
    this.stderr.push(`hearth: ${shown}${this.wanted ? ` (restarting in ${delay} ms)` : ''}\n`);
    await Promise.all([this.stdout.flush(true), this.stderr.flush(true)]).catch(() => undefined);
    this.hooks.onCrash({ at: new Date(now).toISOString(), message, exitCode: exit.code, exitSignal: exit.signal });
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
