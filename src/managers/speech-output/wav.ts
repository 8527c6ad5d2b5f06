/**
 * Just enough RIFF/WAV handling for synthesized speech: read the format and duration, and fill in
 * the size fields that streaming writers (espeak-ng --stdout) leave as placeholders.
 */

export interface WavInfo {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  readonly dataBytes: number;
  readonly durationMs: number;
}

export class WavError extends Error {}

interface Chunk {
  readonly id: string;
  readonly headerAt: number;
  readonly size: number;
}

function* chunks(wav: Uint8Array): Generator<Chunk> {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  let at = 12;
  while (at + 8 <= wav.byteLength) {
    const id = String.fromCharCode(wav[at]!, wav[at + 1]!, wav[at + 2]!, wav[at + 3]!);
    const size = view.getUint32(at + 4, true);
    yield { id, headerAt: at, size };
    at += 8 + size + (size % 2);
  }
}

function checkRiff(wav: Uint8Array): void {
  const tag = (at: number): string => String.fromCharCode(...wav.subarray(at, at + 4));
  if (wav.byteLength < 44 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new WavError('not a RIFF/WAVE file');
}

/**
 * Returns `wav` with the RIFF size and the data chunk size set from the bytes present (in place).
 * A streaming writer cannot know them up front and writes 0x7fffffff-like placeholders.
 */
export function fixWavSizes(wav: Uint8Array): Uint8Array {
  checkRiff(wav);
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  view.setUint32(4, wav.byteLength - 8, true);
  for (const chunk of chunks(wav)) {
    if (chunk.id === 'data') {
      const available = wav.byteLength - chunk.headerAt - 8;
      if (chunk.size !== available) view.setUint32(chunk.headerAt + 4, available, true);
      break;
    }
  }
  return wav;
}

/** Format and duration of a PCM WAV. */
export function wavInfo(wav: Uint8Array): WavInfo {
  checkRiff(wav);
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  let fmt: { channels: number; sampleRate: number; bits: number; blockAlign: number } | undefined;
  for (const chunk of chunks(wav)) {
    if (chunk.id === 'fmt ') {
      const at = chunk.headerAt + 8;
      fmt = {
        channels: view.getUint16(at + 2, true),
        sampleRate: view.getUint32(at + 4, true),
        blockAlign: view.getUint16(at + 12, true),
        bits: view.getUint16(at + 14, true),
      };
    } else if (chunk.id === 'data') {
      if (!fmt || fmt.sampleRate === 0 || fmt.blockAlign === 0) throw new WavError('WAV data before a valid fmt chunk');
      const dataBytes = Math.min(chunk.size, wav.byteLength - chunk.headerAt - 8);
      const frames = Math.floor(dataBytes / fmt.blockAlign);
      return {
        sampleRate: fmt.sampleRate,
        channels: fmt.channels,
        bitsPerSample: fmt.bits,
        dataBytes,
        durationMs: Math.round((frames / fmt.sampleRate) * 1000),
      };
    }
  }
  throw new WavError('WAV has no data chunk');
}
