/**
 * Where spoken audio goes (config.audioOut): the sound card through aplay, or a folder that gets
 * one WAV file per utterance (tests, and headless setups that hand audio to something else).
 * Apps' samples (`homey.audio.playWav/playMp3`) go the same way; MP3 only to a folder, since
 * aplay plays WAV and hearth carries no MP3 decoder.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../../core/durable-file.js';
import { unavailable } from '../../core/errors.js';
import { makeDirs } from '../../core/files.js';
import { run } from './engines/process.js';

export type AudioFormat = 'wav' | 'mp3';

export interface AudioSink {
  /** 'folder: /path' or 'sound card', for logs and the state object. */
  readonly description: string;
  /** Plays (or stores) one utterance or sample; resolves when done. Returns the file written, if any. */
  play(audio: Uint8Array, signal: AbortSignal, format?: AudioFormat): Promise<string | null>;
}

/** Plays through the default ALSA device. */
export class CardSink implements AudioSink {
  readonly description = 'sound card (aplay)';

  async play(audio: Uint8Array, signal: AbortSignal, format: AudioFormat = 'wav'): Promise<null> {
    if (format !== 'wav') throw unavailable('the sound card plays WAV only (hearth has no MP3 decoder): play the sample as WAV');
    await run('aplay', ['-q', '-t', 'wav', '-'], { input: audio, signal });
    return null;
  }
}

/** How much the WAV folder keeps: the newest utterances, within both bounds. */
export interface FolderLimits {
  readonly files: number;
  readonly bytes: number;
}

/** About 100 minutes of festival speech at 2.3 MB a minute-long utterance, or 200 utterances. */
export const FOLDER_LIMITS: FolderLimits = { files: 200, bytes: 256 * 1024 * 1024 };

/** The names this sink writes (and so the only ones it may delete): `20261125T020304567Z-000001.wav`. */
const OWN_NAME = /^\d{8}T\d{9}Z-\d{6}\.(wav|mp3)$/;

/**
 * Writes `<folder>/<UTC time>-<seq>.wav`. The file appears complete or not at all: it is
 * written as a dot-file, fsynced, then renamed, so a reader watching for *.wav never sees half.
 * The folder is bounded: after each write the oldest of the sink's own files go until the
 * folder's share is within `limits`. Only regular files named as this sink names them are ever
 * deleted (never a link, socket or folder, whatever its name), and never the file just written.
 */
export class FolderSink implements AudioSink {
  readonly description: string;
  private seq = 0;

  constructor(
    readonly dir: string,
    private readonly limits: FolderLimits = FOLDER_LIMITS,
  ) {
    this.description = `folder ${dir}`;
  }

  async play(audio: Uint8Array, signal: AbortSignal, format: AudioFormat = 'wav'): Promise<string> {
    signal.throwIfAborted();
    await makeDirs(this.dir);
    const stamp = new Date().toISOString().replace(/[-:.]/g, '');
    const name = `${stamp}-${String(++this.seq).padStart(6, '0')}.${format}`;
    const file = join(this.dir, name);
    await writeFileDurable(file, audio, { mode: 0o644, signal });
    await this.trim(name);
    return file;
  }

  /** Deletes the oldest own files beyond the limits, keeping `newest`. */
  private async trim(newest: string): Promise<void> {
    const own: { name: string; size: number; mtimeMs: number }[] = [];
    for (const name of await readdir(this.dir)) {
      if (!OWN_NAME.test(name)) continue;
      const info = await lstat(join(this.dir, name)).catch(() => null);
      if (info?.isFile()) own.push({ name, size: info.size, mtimeMs: info.mtimeMs });
    }
    // Newest first: by modification time (a clock set back must not make new files look old),
    // then by name for files written within one tick.
    own.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : -1));
    let files = 0;
    let bytes = 0;
    for (const f of own) {
      files++;
      bytes += f.size;
      if (f.name === newest || (files <= this.limits.files && bytes <= this.limits.bytes)) continue;
      await rm(join(this.dir, f.name), { force: true });
    }
  }
}
