/**
 * A stand-in for GitHub on 127.0.0.1, as Get apps reads it: a ref resolved to its commit
 * (`/repos/{owner}/{name}/commits/{ref}`) and a commit's tarball (`/{owner}/{name}/tar.gz/{sha}`),
 * the folder inside it named as GitHub names it. Repositories are folders published here.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';

export interface GitHub {
  url: string;
  /** Publishes `dir` as the default branch of `repo` (owner/name); answers its commit. */
  publish(repo: string, dir: string): Promise<string>;
  asked: string[];
  close(): void;
}

export async function startGitHub(work: string): Promise<GitHub> {
  await mkdir(work, { recursive: true });
  const heads = new Map<string, string>();
  const tarballs = new Map<string, Buffer>();
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    asked.push(url);
    const ref = /^\/repos\/([^/]+\/[^/]+)\/commits\/([^/]+)$/.exec(url);
    if (ref) {
      const commit = heads.get(ref[1]!);
      const known = commit !== undefined && ['HEAD', commit].includes(decodeURIComponent(ref[2]!));
      res.writeHead(known ? 200 : 422, { 'content-type': 'text/plain' }).end(known ? commit : 'No commit found');
      return;
    }
    const tar = /^\/([^/]+\/[^/]+)\/tar\.gz\/([0-9a-f]{40})$/.exec(url);
    const bytes = tar ? tarballs.get(`${tar[1]}@${tar[2]}`) : undefined;
    if (bytes) res.writeHead(200, { 'content-type': 'application/x-gzip' }).end(bytes);
    else res.writeHead(404).end('Not Found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => server.close(),
    async publish(repo, dir) {
      const file = join(work, `${repo.replace('/', '+')}.tar.gz`);
      const commit = createHash('sha1').update(`${repo}${Date.now()}${Math.random()}`).digest('hex');
      const top = `${repo.replace('/', '-')}-${commit.slice(0, 7)}`;
      execFileSync('tar', ['-czf', file, '-C', dirname(dir), '--transform', `s,^${basename(dir)},${top},`, basename(dir)]);
      heads.set(repo, commit);
      tarballs.set(`${repo}@${commit}`, await readFile(file));
      return commit;
    },
  };
}
