/**
 * One run of one app: the child process under Node's permission model, its handshake
 * (hello -> init -> onInit resolved), the calls in both directions over a framed channel on the
 * child's fd 3 (frames.ts: an app sending more than 1 MiB at once is stopped, where Node's IPC
 * would have buffered without limit), and its graceful stop (uninit with a deadline, then
 * SIGTERM, then SIGKILL). Restarts are the supervisor's job.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import type { Duplex, Readable } from 'node:stream';
import { exceedsDepth, MAX_JSON_DEPTH } from '../../core/json-depth.js';
import { describeIssues } from '../../core/zod-issues.js';
import { CHANNEL_FD, encodeFrame, FrameDecoder, MAX_APP_FRAME_BYTES } from '../wire/frames.js';
import { APP_CALLS, type AppCallArgs, type AppCallMethod, type AppCallResult, type AppEvent, ChildMessage, HUB_CALLS, HubMessage } from '../wire/protocol.js';
import { answerOf, PROTOCOL_VERSION, RpcError, RpcPeer } from '../wire/wire.js';
import { childCommand, childEnv, throttled } from './child-command.js';
import { APP_NICE, type ChildExit, type ChildHooks, type ChildOptions, type ChildSpec, MAX_UNREAD_BYTES, nodeExit, StartError } from './child-spec.js';
import { INFO_FD, nodeBelow, reaperPid } from './node-pid.js';
import { BudgetSpent, RefusalBudget } from './refusals.js';
import { childMessageOf, isOwnAnswer, isOwnCall } from './wire-checks.js';

export { childExecArgv, OUTPUT_BYTES_PER_SECOND, runtimeDir } from './child-command.js';

export class AppChild {
  readonly exited: Promise<ChildExit>;
  private readonly peer: RpcPeer;
  private readonly channel: Duplex;
  private channelOpen = true;
  private broken: string | null = null;
  private readonly decoder = new FrameDecoder(MAX_APP_FRAME_BYTES);
  private onMessage: (raw: unknown) => void = () => undefined;
  private readonly refusals = new RefusalBudget();
  private inFlight = 0;
  private exit: ChildExit | undefined;
  /** Events before init are dropped: the state init carries is taken when it is sent. */
  private initSent = false;
  private nodePid: number | undefined;
  /** bubblewrap's reaper (pid 1 of the app's namespace), from its --info-fd report. */
  private reaper: number | undefined;
  /** Settles once bubblewrap's report was read (at once outside namespaces). */
  readonly located: Promise<void>;

  private constructor(
    private readonly proc: ChildProcess,
    private readonly opts: ChildOptions,
    private readonly hooks: ChildHooks,
    /** Whether the spawned process is bubblewrap with node as its child (namespaces). */
    private readonly contained: boolean,
  ) {
    this.peer = new RpcPeer((m) => this.send(m), opts.callTimeoutMs);
    this.exited = new Promise((resolve) => {
      // 'close', not 'exit': it comes after stdout/stderr drained, so the crash log has the stack.
      proc.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
        this.exit = this.contained && signal === null ? nodeExit(code) : { code, signal };
        this.peer.rejectAll('closed', `the app exited (${signal ?? `code ${code}`})`);
        resolve(this.exit);
      });
    });
    this.located = contained
      ? reaperPid(proc.stdio[INFO_FD] as Readable).then((pid) => {
          this.reaper = pid;
        })
      : Promise.resolve();
    this.channel = proc.stdio[CHANNEL_FD] as Duplex;
    this.channel.on('data', (chunk: Buffer) => this.received(chunk));
    const closed = (): void => {
      this.channelOpen = false;
    };
    this.channel.on('close', closed);
    this.channel.on('error', closed);
    throttled(proc.stdout, (c) => hooks.stdout(c));
    throttled(proc.stderr, (c) => hooks.stderr(c));
    proc.on('error', (err) => hooks.stderr(Buffer.from(`hearth: child process error: ${err.message}\n`)));
  }

  /** The process the hub spawned: bubblewrap in namespaces (node is its child), else node itself. */
  get outerPid(): number | undefined {
    return this.proc.pid;
  }

  /**
   * The app's node process: the process the hub spawned, or in namespaces node below
   * bubblewrap's reaper, found from bubblewrap's report and the kernel's (node-pid.ts), never
   * from a name the app can set. Undefined in namespaces until it is known: the hub then samples,
   * renices and signals nothing rather than bubblewrap.
   */
  get pid(): number | undefined {
    if (!this.contained) return this.proc.pid;
    if (this.nodePid === undefined && this.reaper !== undefined) this.nodePid = nodeBelow(this.reaper);
    return this.nodePid;
  }

  /** Bytes from the app's channel; a frame over the limit, not JSON or too deep ends the app at once. */
  private received(chunk: Buffer): void {
    let messages: unknown[];
    try {
      messages = this.decoder.push(chunk);
    } catch (err) {
      this.breakChannel(`its channel to the hub broke (${(err as Error).message})`);
      return;
    }
    for (const m of messages) {
      if (!this.channelOpen) return; // stopped by an earlier message of this chunk
      // The bound on every JSON value from outside (core/json-depth.ts): past it, the hub's own
      // JSON.stringify of what the app sent would throw later.
      if (exceedsDepth(m)) {
        this.breakChannel(`it sent a message nested deeper than ${MAX_JSON_DEPTH} levels`);
        return;
      }
      this.onMessage(m);
    }
  }

  /** Counts a message the protocol refuses; the first few are logged, past the budget the app is stopped. */
  private refused(describe: () => string): void {
    try {
      const why = this.refusals.refuse(describe);
      if (why !== null) this.hooks.stderr(Buffer.from(`hearth: refused a message from the app: ${why}\n`));
    } catch (err) {
      if (!(err instanceof BudgetSpent)) throw err;
      this.breakChannel(err.message);
    }
  }

  /** Why the hub ended this app's channel (and the app), when it did; the crash message names it. */
  get brokenBecause(): string | null {
    return this.broken;
  }

  /** Ends an app whose channel cannot be trusted any more; the supervisor counts it a crash. */
  private breakChannel(reason: string): void {
    this.broken ??= reason;
    this.channelOpen = false;
    this.channel.destroy();
    this.hooks.stderr(Buffer.from(`hearth: stopped the app: ${reason}\n`));
    this.kill('SIGKILL');
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /**
   * Forks the app and resolves once its onInit resolved. On any failure (exit, onInit threw,
   * timeout) the child is killed and the promise rejects with a sentence for crashedMessage.
   */
  static async start(spec: ChildSpec, opts: ChildOptions, hooks: ChildHooks): Promise<AppChild> {
    const stdio: Array<'ignore' | 'pipe'> = ['ignore', 'pipe', 'pipe'];
    stdio[CHANNEL_FD] = 'pipe';
    if (spec.sandbox.containment === 'namespaces') stdio[INFO_FD] = 'pipe';
    const command = childCommand(spec, opts.heapMb);
    const proc = spawn(command.file, command.args, { cwd: spec.userdata, env: childEnv(spec), stdio });
    const child = new AppChild(proc, opts, hooks, spec.sandbox.containment === 'namespaces');
    hooks.spawned?.(child);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RpcError('timeout', `the app did not finish starting (onInit) within ${opts.startTimeoutMs} ms`)),
        opts.startTimeoutMs,
      );
    });
    const died = child.exited.then((e): never => {
      throw new RpcError('closed', `the app exited during start (${e.signal ?? `exit code ${e.code}`})`);
    });
    try {
      await Promise.race([child.handshake(spec, opts.startTimeoutMs), timeout, died]);
      // bubblewrap wrote its report before node ran, so it is in by now (node-pid.ts).
      await Promise.race([child.located, timeout, died]);
      // Lowered only once ready: starting at full priority keeps fork-to-ready short.
      const pid = child.pid;
      if (pid !== undefined) {
        try {
          setPriority(pid, APP_NICE);
        } catch {
          // Not fatal: the app just competes with the hub at equal priority.
        }
      }
      return child;
    } catch (err) {
      child.kill('SIGKILL');
      const exit = await child.exited;
      throw new StartError(err instanceof RpcError ? err : new RpcError('app_error', String(err)), exit);
    } finally {
      clearTimeout(timer);
      died.catch(() => undefined);
    }
  }

  private handshake(spec: ChildSpec, timeoutMs: number): Promise<void> {
    let greeted = false;
    return new Promise<void>((resolve, reject) => {
      this.onMessage = (raw: unknown) => {
        let m = childMessageOf(raw);
        if (!m) {
          const parsed = ChildMessage.safeParse(raw);
          if (!parsed.success) return this.refused(() => `a malformed message: ${describeIssues(parsed.error, 'message')}`);
          m = parsed.data;
        }
        switch (m.type) {
          case 'hello':
            // App code can write to the channel itself: a second hello is noise, not a new init.
            if (greeted) return this.refused(() => 'a second hello');
            greeted = true;
            if (m.protocol !== PROTOCOL_VERSION) {
              reject(new RpcError('app_error', `the child speaks protocol ${m.protocol}, the hub ${PROTOCOL_VERSION}`));
              return;
            }
            this.initSent = true;
            this.call('init', spec.init(), timeoutMs).then(() => resolve(), reject);
            break;
          case 'call':
            this.serve(m.id, m.method, m.args);
            break;
          case 'result':
          case 'error':
            if (!this.peer.settle(m)) this.refused(() => `an answer to call ${m.id}, which the hub is not waiting for`);
            break;
        }
      };
    });
  }

  private serve(id: number, method: string, args: unknown): void {
    // Still answered (the router says what is wrong), but counted: no SDK version calls it.
    if (!Object.hasOwn(HUB_CALLS, method)) this.refused(() => `a call of '${method.slice(0, 64)}', which is not an SDK call`);
    if (!this.channelOpen) return;
    if (this.inFlight >= this.opts.maxInFlight) {
      this.answer(answerOf(id, { ok: false, error: new RpcError('busy', `more than ${this.opts.maxInFlight} calls at once; wait for answers`) }));
      return;
    }
    this.inFlight++;
    this.hooks
      .dispatch(method, args)
      .then(
        (result) => this.answer(answerOf(id, { ok: true, result })),
        (error: unknown) => this.answer(answerOf(id, { ok: false, error })),
      )
      .finally(() => this.inFlight--);
  }

  /** Sends an answer; an app that exited meanwhile simply does not get it. */
  private answer(message: unknown): void {
    try {
      this.send(message);
    } catch {
      // closed channel or an answer the protocol refuses: nothing useful to do for a gone caller
    }
  }

  /** Sends a message after checking it against the protocol (what the child trusts). */
  private send(message: unknown): void {
    // The hub's own calls and answers (RpcPeer and answerOf build them) are checked by hand
    // (wire-checks.ts): zod's copy of `args` into null-prototype objects made JSON.stringify take
    // its slow path, and its code is out of the caches by the next call.
    let out: unknown = message;
    if (!isOwnCall(message) && !isOwnAnswer(message)) {
      const checked = HubMessage.safeParse(message);
      if (!checked.success) throw new RpcError('invalid_args', describeIssues(checked.error, 'message to the app'));
      out = checked.data;
    }
    if (!this.channelOpen || !this.running) throw new RpcError('closed', 'the app is not running');
    this.channel.write(encodeFrame(out));
    // An app that stops reading would otherwise grow this buffer in the hub without bound.
    if (this.channel.writableLength > MAX_UNREAD_BYTES) {
      this.breakChannel(`it left ${this.channel.writableLength} bytes of the hub's messages unread`);
    }
  }

  /** Calls into the app; the answer is checked against the protocol's result schema. */
  async call<M extends AppCallMethod>(method: M, args: AppCallArgs<M>, timeoutMs?: number): Promise<AppCallResult<M>> {
    const raw = await this.peer.call(method, args, timeoutMs);
    const parsed = APP_CALLS[method].result.safeParse(raw);
    if (!parsed.success) throw new RpcError('invalid_result', `the app answered ${method} with ${describeIssues(parsed.error, 'a malformed result')}`);
    return parsed.data as AppCallResult<M>;
  }

  /** Fire-and-forget notification (settings changed, language changed). */
  notify(event: AppEvent): void {
    if (!this.initSent) return;
    try {
      this.send({ type: 'event', event });
    } catch {
      // Not running: it reads current values at its next start anyway.
    }
  }

  /**
   * Signals the app. In namespaces SIGKILL goes to bubblewrap (its child dies with it), any other
   * signal to node itself, so an app that handles SIGTERM gets it as it would outside.
   */
  kill(signal: NodeJS.Signals): void {
    if (!this.running) return;
    const node = signal === 'SIGKILL' ? undefined : this.pid;
    if (node !== undefined && node !== this.proc.pid) {
      try {
        process.kill(node, signal);
        return;
      } catch {
        // gone already, or not yet found: the outer process then
      }
    }
    this.proc.kill(signal);
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const result = await Promise.race([this.exited.then(() => true as const), timedOut]);
    clearTimeout(timer);
    return result;
  }

  /**
   * onUninit with a deadline, then SIGTERM, then SIGKILL. Resolves once the process is gone.
   * `limits` shortens the deadlines (hub shutdown must finish within systemd's stop timeout).
   */
  async stop(limits: { uninitMs?: number; graceMs?: number } = {}): Promise<ChildExit> {
    const uninitMs = limits.uninitMs ?? this.opts.stopTimeoutMs;
    const graceMs = limits.graceMs ?? this.opts.killGraceMs;
    if (this.running) {
      await this.call('uninit', {}, uninitMs).catch(() => undefined);
      if (!(await this.exitedWithin(graceMs))) {
        this.kill('SIGTERM');
        if (!(await this.exitedWithin(graceMs))) this.kill('SIGKILL');
      }
    }
    return this.exited;
  }
}
