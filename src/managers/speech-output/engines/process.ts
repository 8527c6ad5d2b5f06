/**
 * Runs a speech tool (espeak-ng, festival, text2wave, aplay) as a child process: argument array,
 * never a shell; optional stdin; cancellable by an AbortSignal. Each child leads its own process
 * group so cancelling also kills what it spawned (festival starts `sh -c aplay ...`).
 */
import { spawn, type ChildProcess } from 'node:child_process';

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

/**
 * Runs `command args...` and resolves with its output once it exits 0.
 *
 * @example await run('espeak-ng', ['--stdin', '--stdout'], { input: 'hello' })
 */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const { input, signal, maxOutput = DEFAULT_MAX_OUTPUT } = options;
  return new Promise<RunResult>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: Error | null = null;

    const onAbort = (): void => {
      failure ??= signal?.reason instanceof Error ? signal.reason : new Error('aborted');
      killGroup(child);
    };
    signal?.addEventListener('abort', onAbort, { once: true });

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
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (code !== 0) {
        const why = sig ? `was killed by ${sig}` : `exited with code ${code}`;
        const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : '';
        return reject(new ProcessError(`${command} ${why}${detail}`, command, code, stderr));
      }
      resolve({ stdout: Buffer.concat(chunks, size), stderr });
    });
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
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
