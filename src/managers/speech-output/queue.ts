/**
 * The say queue: utterances run first-in first-out, `concurrency` at a time (1 for the sound
 * card). A session tag lets a newer utterance replace a waiting one of the same session (the
 * replaced caller gets 409). A timeout bounds waiting plus running: when it runs out the
 * utterance is removed, or its running work aborted, and the caller gets 504.
 */
import { HearthError } from '../../core/errors.js';

export interface QueueJob<T> {
  readonly session?: string | undefined;
  /** Milliseconds from enqueue to completion; undefined waits forever. */
  readonly timeoutMs?: number | undefined;
  /** Removes the job while it waits (e.g. its HTTP client went away); once running it finishes. */
  readonly signal?: AbortSignal | undefined;
  /** The work; it must stop when `signal` aborts (timeout). */
  run(signal: AbortSignal): Promise<T>;
}

interface Entry {
  readonly id: number;
  readonly session: string | undefined;
  readonly controller: AbortController;
  started: boolean;
  settled: boolean;
  start(): void;
  fail(err: Error): void;
}

export class SayQueue {
  private readonly waiting: Entry[] = [];
  private readonly active = new Set<Entry>();
  private seq = 0;
  private closed = false;

  constructor(
    private readonly concurrency = 1,
    /** Waiting utterances beyond this are refused with 429 rather than growing without bound. */
    private readonly maxWaiting = 100,
  ) {}

  /** Utterances waiting and running, for the state object. */
  get length(): { waiting: number; running: number } {
    return { waiting: this.waiting.length, running: this.active.size };
  }

  /** Queues `job` and resolves with its result once it has run. */
  enqueue<T>(job: QueueJob<T>): Promise<T> {
    if (this.closed) return Promise.reject(new HearthError('unavailable', 'speech output is stopping'));
    if (job.signal?.aborted) return Promise.reject(job.signal.reason);
    if (job.session !== undefined) this.replaceSession(job.session);
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(
        new HearthError('rate_limited', `the speech queue is full (${this.maxWaiting} utterances waiting); try again shortly`, {
          'Retry-After': '5',
        }),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const cleanup = (): void => {
        if (timer) clearTimeout(timer);
        job.signal?.removeEventListener('abort', onCallerGone);
      };
      const entry: Entry = {
        id: ++this.seq,
        session: job.session,
        controller,
        started: false,
        settled: false,
        start: () => {
          entry.started = true;
          this.active.add(entry);
          job.run(controller.signal).then(
            (value) => {
              this.finish(entry);
              cleanup();
              // Once the timeout fired the answer is 504, even if the work raced to completion.
              if (controller.signal.aborted) reject(controller.signal.reason);
              else resolve(value);
            },
            (err: unknown) => {
              this.finish(entry);
              cleanup();
              reject(controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : err);
            },
          );
        },
        fail: (err) => {
          if (entry.settled) return;
          cleanup();
          if (entry.started) {
            // The work rejects once its process is killed; that rejection carries `err`.
            controller.abort(err);
            return;
          }
          entry.settled = true;
          this.remove(entry);
          reject(err);
        },
      };
      const onCallerGone = (): void => {
        if (!entry.started) entry.fail(new HearthError('timeout', 'the caller went away before the utterance started'));
      };
      job.signal?.addEventListener('abort', onCallerGone, { once: true });
      if (job.timeoutMs !== undefined) {
        const seconds = job.timeoutMs / 1000;
        timer = setTimeout(
          () => entry.fail(new HearthError('timeout', `the utterance did not finish within its timeout of ${seconds} s; it was cancelled`)),
          job.timeoutMs,
        );
      }
      this.waiting.push(entry);
      this.pump();
    });
  }

  /** Rejects every waiting utterance and aborts every running one (hub stopping). */
  close(): void {
    this.closed = true;
    const err = new HearthError('unavailable', 'speech output stopped');
    for (const e of [...this.waiting, ...this.active]) e.fail(err);
  }

  private replaceSession(session: string): void {
    for (const e of this.waiting.filter((w) => w.session === session)) {
      e.fail(new HearthError('conflict', `replaced by a newer utterance in session '${session}'`));
    }
  }

  private remove(entry: Entry): void {
    const at = this.waiting.indexOf(entry);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  private finish(entry: Entry): void {
    entry.settled = true;
    this.active.delete(entry);
    this.pump();
  }

  private pump(): void {
    while (this.active.size < this.concurrency && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      next.start();
    }
  }
}
