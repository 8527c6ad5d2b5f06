/**
 * Helpers for the speech suites: temp folders, sox's view of a WAV, and a festival "sound card"
 * that copies each utterance into a folder (festival reads ~/.festivalrc, so HOME points at one).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tempDir = (prefix: string): Promise<string> => mkdtemp(join(tmpdir(), `hearth-${prefix}-`));

export interface SoxInfo {
  readonly rate: number;
  readonly seconds: number;
  readonly channels: number;
}

/** What `soxi` reads from a WAV file (sample rate, duration, channels). */
export function soxi(file: string): SoxInfo {
  const field = (flag: string): number => Number(execFileSync('soxi', [flag, file], { encoding: 'utf8' }).trim());
  return { rate: field('-r'), seconds: field('-D'), channels: field('-c') };
}

/**
 * Makes `home` a HOME whose .festivalrc sends festival's audio to `<outDir>/card-<pid>.wav`
 * instead of the (absent) sound card.
 */
export async function festivalCardHome(home: string, outDir: string): Promise<void> {
  const rc = [
    "(Parameter.set 'Audio_Method 'Audio_Command)",
    "(Parameter.set 'Audio_Required_Format 'riff)",
    `(Parameter.set 'Audio_Command "cp $FILE ${outDir}/card-$$.wav")`,
  ].join('\n');
  await writeFile(join(home, '.festivalrc'), `${rc}\n`);
}

/** Injection payloads: each would run `touch <marker>` if text or voice reached a shell or Scheme. */
export function payloads(marker: string): string[] {
  return [
    `") (system "touch ${marker}") ("`,
    `hello") (system "touch ${marker}")`,
    `\\") (system \\"touch ${marker}\\") (\\"`,
    `"; touch ${marker}; echo "`,
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `x")\n(system "touch ${marker}")\n("`,
    `-w ${marker}`,
    `--version`,
    `--stdout -w ${marker}`,
  ];
}

/**
 * A sound card for machines without one: an `aplay` on PATH that copies each WAV into `outDir`
 * and then takes as long as the audio lasts (sox measures it), like a real card would.
 * Returns the PATH to use.
 */
export async function fakeCardPath(binDir: string, outDir: string): Promise<string> {
  const script = [
    '#!/bin/sh',
    'case "$1" in --version) echo "aplay: fake sound card"; exit 0;; esac',
    `echo $$ > "${outDir}/playing.pid"`,
    `f="${outDir}/card-$$.wav"`,
    'cat > "$f.part" && mv "$f.part" "$f"',
    'sleep "$(soxi -D "$f")"',
  ].join('\n');
  const file = join(binDir, 'aplay');
  await writeFile(file, `${script}\n`, { mode: 0o755 });
  return `${binDir}:${process.env.PATH ?? ''}`;
}
