/**
 * `this.homey.audio`: plays a WAV or MP3 sample through the hub's audio sink (the sound card, or
 * the WAV folder). A sample is a Buffer or a path inside the app's folder; it is kept here by its
 * id, so playing it again needs only the id, as on Homey.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

/** Largest sample (the hub takes it as base64 within one 1 MiB message; see protocol.ts MAX_SAMPLE_BASE64). */
export const MAX_SAMPLE_BYTES = 512 * 1024;
/** Samples kept for replay by id; the oldest goes first. */
const KEPT = 16;

type Format = 'wav' | 'mp3';

export class ManagerAudio extends Manager {
  static ID = 'audio';
  private readonly samples = new Map<string, Buffer>();

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  playWav(sampleId: string, sample?: string | Buffer): Promise<void> {
    return this.play('wav', sampleId, sample);
  }

  playMp3(sampleId: string, sample?: string | Buffer): Promise<void> {
    return this.play('mp3', sampleId, sample);
  }

  async removeWav(sampleId: string): Promise<void> {
    this.samples.delete(`wav:${sampleId}`);
  }

  async removeMp3(sampleId: string): Promise<void> {
    this.samples.delete(`mp3:${sampleId}`);
  }

  private async play(format: Format, sampleId: string, sample?: string | Buffer): Promise<void> {
    const key = `${format}:${sampleId}`;
    let data: Buffer;
    if (sample === undefined) {
      const kept = this.samples.get(key);
      if (!kept) throw new HomeyError(`no ${format} sample '${sampleId}' was played before: pass the sample too`, 'not_found');
      data = kept;
    } else if (typeof sample === 'string') {
      data = await readFile(resolve(this.ctx.app.dir, sample));
    } else if (sample instanceof Uint8Array) {
      data = Buffer.from(sample);
    } else {
      throw new HomeyError(`play${format === 'wav' ? 'Wav' : 'Mp3'} needs a Buffer or a file path`, 'invalid_args');
    }
    if (data.length > MAX_SAMPLE_BYTES)
      throw new HomeyError(`a sample may be at most ${MAX_SAMPLE_BYTES / 1024} KiB; this one is ${Math.ceil(data.length / 1024)} KiB`, 'invalid_args');
    this.samples.delete(key);
    this.samples.set(key, data);
    while (this.samples.size > KEPT) this.samples.delete(this.samples.keys().next().value as string);
    await this.ctx.transport.call('audio.play', { format, sample: data.toString('base64') });
  }
}
