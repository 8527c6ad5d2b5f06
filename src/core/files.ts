/**
 * The small file-system jobs more than one module needs, written once: whether a path names
 * something, and the SHA-256 of a file read as a stream.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** Whether `path` names something; any error reading it (absent, no permission) counts as no. */
export function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The SHA-256 of a file's bytes as hex, read as a stream (archives are gigabytes). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
