/**
 * Where spoken audio goes (config.audioOut): the sound card through aplay, or a folder that gets
 * one WAV file per utterance (tests, and headless setups that hand audio to something else).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../../core/durable-file.js';
import { run } from './engines/process.js';

export interface AudioSink {
  /** 'folder: /path' or 'sound card', for logs and the state object. */
  readonly description: string;
  /** Plays (or stores) one utterance; resolves when done. Returns the file written, if any. */
  play(wav: Uint8Array, signal: AbortSignal): Promise<string | null>;
}

/** Plays through the default ALSA device. */
export class CardSink implements AudioSink {
  readonly description = 'sound card (aplay)';

  async play(wav: Uint8Array, signal: AbortSignal): Promise<null> {
    await run('aplay', ['-q', '-t', 'wav', '-'], { input: wav, signal });
    return null;
  }
}

/**
 * Writes `<folder>/<UTC time>-<seq>.wav`. The file appears complete or not at all: it is
 * written as a dot-file, fsynced, then renamed, so a reader watching for *.wav never sees half.
 */
export class FolderSink implements AudioSink {
  readonly description: string;
  private seq = 0;

  constructor(readonly dir: string) {
    this.description = `folder ${dir}`;
  }

  async play(wav: Uint8Array, signal: AbortSignal): Promise<string> {
    signal.throwIfAborted();
    await mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[-:.]/g, '');
    const name = `${stamp}-${String(++this.seq).padStart(6, '0')}.wav`;
    const file = join(this.dir, name);
    await writeFileDurable(file, wav, { mode: 0o644, signal });
    return file;
  }
}
