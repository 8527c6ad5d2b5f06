/**
 * Runs a speech tool (espeak-ng, festival, text2wave, aplay) as a child process: argument array,
 * never a shell; optional stdin; cancellable by an AbortSignal. Each child leads its own process
 * group so cancelling also kills what it spawned (festival starts `sh -c aplay ...`).
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface RunOptions {
  /** Written to the child's stdin, which is then closed. */
  readonly input?: string | Uint8Array;
  readonly signal?: AbortSignal;
  /** Bytes of stdout kept; more is an error (a runaway tool must not fill the hub's memory). */
  readonly maxOutput?: number;
}

export interface RunResult {
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** A tool that ran and failed: non-zero exit, killed, or too much output. */
export class ProcessError extends Error {
  constructor(
    message: string,
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'ProcessError';
  }
}

/** The tool is not installed (spawn gave ENOENT). */
export class MissingToolError extends Error {
  constructor(readonly command: string) {
    super(`${command} is not installed`);
    this.name = 'MissingToolError';
  }
}

const STDERR_KEEP = 4096;
const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/** Kills a child and its whole process group (the child was spawned `detached`, so it leads one). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone, or the group vanished between the check and the kill.
    child.kill('SIGKILL');
  }
}

/** A started child that has not been given its input yet. */
export interface Started {
  readonly command: string;
  /** Still running and not failed: safe to hand input to. */
  readonly alive: boolean;
  /** Writes `input` to stdin, closes it, and resolves with the output once the child exits 0. */
  finish(input?: string | Uint8Array, signal?: AbortSignal): Promise<RunResult>;
  kill(): void;
  /** Lets the hub exit while this child idles (a spare); `ref()` undoes it when it is used. */
  unref(): void;
  ref(): void;
}

/**
 * Starts `command args...` (own process group, no shell) and returns a handle that takes the
 * input later, so a tool can load its data before the text is known (see SparePool).
 */
export function start(command: string, args: readonly string[], maxOutput = DEFAULT_MAX_OUTPUT): Started {
  const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const chunks: Buffer[] = [];
  let size = 0;
  let stderr = '';
  let failure: Error | null = null;
  let closed = false;

  child.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxOutput) {
      failure ??= new ProcessError(`${command} wrote more than ${maxOutput} bytes`, command, null, stderr);
      killGroup(child);
      return;
    }
    chunks.push(chunk);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < STDERR_KEEP) stderr += text.slice(0, STDERR_KEEP - stderr.length);
  });
  // A tool that exits before reading all of stdin gives EPIPE here; its exit code tells the story.
  child.stdin.on('error', () => undefined);
  child.on('error', (err: NodeJS.ErrnoException) => {
    failure ??= err.code === 'ENOENT' ? new MissingToolError(command) : err;
  });
  const done = new Promise<RunResult>((resolve, reject) => {
    child.on('close', (code, sig) => {
      closed = true;
      if (failure) return reject(failure);
      if (code !== 0) {
        const why = sig ? `was killed by ${sig}` : `exited with code ${code}`;
        const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : '';
        return reject(new ProcessError(`${command} ${why}${detail}`, command, code, stderr));
      }
      resolve({ stdout: Buffer.concat(chunks, size), stderr });
    });
  });
  // A spare that dies unused must not surface as an unhandled rejection; finish() reports it.
  done.catch(() => undefined);
  const streams = [child.stdin, child.stdout, child.stderr] as const;

  return {
    command,
    get alive() {
      return !closed && failure === null && child.exitCode === null && child.signalCode === null;
    },
    finish(input, signal) {
      if (signal?.aborted) {
        failure ??= signal.reason instanceof Error ? signal.reason : new Error('aborted');
        killGroup(child);
        return done;
      }
      const onAbort = (): void => {
        failure ??= signal?.reason instanceof Error ? signal.reason : new Error('aborted');
        killGroup(child);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (input !== undefined) child.stdin.end(input);
      else child.stdin.end();
      return done.finally(() => signal?.removeEventListener('abort', onAbort));
    },
    kill: () => killGroup(child),
    unref() {
      child.unref();
      for (const s of streams) (s as { unref?: () => void }).unref?.();
    },
    ref() {
      child.ref();
      for (const s of streams) (s as { ref?: () => void }).ref?.();
    },
  };
}

/**
 * Runs `command args...` and resolves with its output once it exits 0.
 *
 * @example await run('espeak-ng', ['--stdin', '--stdout'], { input: 'hello' })
 */
export async function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const { input, signal, maxOutput } = options;
  signal?.throwIfAborted();
  return start(command, args, maxOutput).finish(input, signal);
}

/**
 * Keeps one started, idle process for the arguments used last, so the next request with the
 * same voice and speed only writes its text: the tool's start-up (loading voice data, ~10 ms
 * for espeak-ng, ~250 ms for festival) happens between requests instead of during one.
 */
export class SparePool {
  private spare: { key: string; started: Started } | null = null;
  private closed = false;

  constructor(private readonly command: string) {}

  /** A process for `args`: the spare when it matches and lives, else a fresh one. */
  take(args: readonly string[]): Started {
    const key = args.join('\u0000');
    const spare = this.spare;
    this.spare = null;
    if (spare && spare.key === key && spare.started.alive) {
      spare.started.ref();
      return spare.started;
    }
    spare?.started.kill();
    return start(this.command, args);
  }

  /** Starts the spare for `args` (after a request finished, so it does not compete with it). */
  refill(args: readonly string[]): void {
    if (this.closed || this.spare) return;
    const started = start(this.command, args);
    started.unref();
    this.spare = { key: args.join('\u0000'), started };
  }

  close(): void {
    this.closed = true;
    this.spare?.started.kill();
    this.spare = null;
  }
}

/** True when `command` can be started (probed with `args`, e.g. --version). */
export async function isInstalled(command: string, args: readonly string[]): Promise<boolean> {
  try {
    await run(command, args, { signal: AbortSignal.timeout(10_000) });
    return true;
  } catch (err) {
    // Present but unhappy with the probe still counts as installed; only ENOENT means absent.
    return !(err instanceof MissingToolError);
  }
}
