/**
 * A stand-in for the npm registry on 127.0.0.1, as npm reads it: a package's document
 * (`GET /<name>`: its versions, each with its tarball's address and integrity) and the tarballs.
 * Packages are made from folders here; nothing reaches the internet.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';

export interface RegistryPackage {
  name: string;
  version: string;
  /** The package's folder (its package.json names it and its version). */
  dir: string;
  dependencies?: Record<string, string>;
}

export interface Registry {
  url: string;
  /** Every path asked for, in order. */
  asked: string[];
  /** Holds the answers to `path` until the function returned is called (a build caught in the middle). */
  hold(path: string): () => void;
  close(): void;
}

/** Packs `dir` as npm does (its files under package/, links followed) into `out`. */
function pack(dir: string, out: string): void {
  execFileSync('tar', ['-czhf', out, '-C', dirname(dir), '--transform', `s,^${basename(dir)},package,`, basename(dir)]);
}

export async function startRegistry(work: string, packages: RegistryPackage[]): Promise<Registry> {
  await mkdir(work, { recursive: true });
  const tarballs = new Map<string, Buffer>();
  const docs = new Map<string, (url: string) => unknown>();
  for (const p of packages) {
    const file = join(work, `${p.name}-${p.version}.tgz`);
    pack(p.dir, file);
    const bytes = await readFile(file);
    const path = `/${p.name}/-/${p.name}-${p.version}.tgz`;
    tarballs.set(path, bytes);
    const previous = docs.get(p.name);
    docs.set(p.name, (url) => {
      const before = (previous?.(url) as { versions: Record<string, unknown> } | undefined)?.versions ?? {};
      return {
        name: p.name,
        'dist-tags': { latest: p.version },
        versions: {
          ...before,
          [p.version]: {
            name: p.name,
            version: p.version,
            dependencies: p.dependencies ?? {},
            dist: {
              tarball: `${url}${path}`,
              shasum: createHash('sha1').update(bytes).digest('hex'),
              integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
            },
          },
        },
      };
    });
  }
  const asked: string[] = [];
  const held = new Map<string, Promise<void>>();
  let url = '';
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    asked.push(path);
    await held.get(path);
    const tarball = tarballs.get(path);
    if (tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      return;
    }
    const doc = docs.get(path.slice(1));
    if (doc) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc(url)));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hold = (path: string): (() => void) => {
    let release = (): void => undefined;
    held.set(path, new Promise<void>((r) => (release = r)));
    return () => {
      held.delete(path);
      release();
    };
  };
  return { url, asked, hold, close: () => server.close() };
}
