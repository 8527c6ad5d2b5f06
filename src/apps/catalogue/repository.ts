/**
 * An app's source repository on GitHub, as the owner names it in Apps → Get apps
 * ("owner/name", "owner/name@v1.2.0", or its https://github.com/... address): the ref resolved to
 * the commit it is now (one API call; GitHub allows 60 an hour without a token), and that
 * commit's tarball (codeload, not counted). The commit, not the tag, is what gets installed, so
 * a tag moved later changes nothing installed. `--repo-host` points both at another origin
 * serving the same paths (the tests' stand-in on 127.0.0.1, a mirror).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { HearthError, invalid, notFound } from '../../core/errors.js';
import { saveBounded } from './package-extract.js';

const badGateway = (what: string): HearthError => new HearthError('bad_gateway', what);

export interface RepoHost {
  /** GitHub's REST API (`/repos/{owner}/{name}/commits/{ref}`). */
  readonly api: string;
  /** Where commit tarballs are (`/{owner}/{name}/tar.gz/{sha}`). */
  readonly archive: string;
}

/** GitHub, or `configured` (one origin serving both path sets) when given. */
export function repoHost(configured: string): RepoHost {
  if (configured === '') return { api: 'https://api.github.com', archive: 'https://codeload.github.com' };
  const base = configured.replace(/\/+$/, '');
  return { api: base, archive: base };
}

export interface RepoRef {
  readonly owner: string;
  readonly name: string;
  /** A tag, branch or commit; null: the default branch. */
  readonly ref: string | null;
}

const PART = /^[A-Za-z0-9_.-]{1,100}$/;
const REF = /^[A-Za-z0-9_./-]{1,200}$/;

/** `owner/name[@ref]` or a github.com address (`.../tree/<ref>` names the ref), or why not. */
export function parseRepo(text: string): RepoRef {
  const given = text.trim();
  const url = /^https?:\/\/(?:www\.)?github\.com\/([^/]+)\/([^/#?]+?)(?:\.git)?(?:\/tree\/([^#?]+))?\/?$/.exec(given);
  const short = /^([^/@\s]+)\/([^/@\s]+?)(?:\.git)?(?:@(\S+))?$/.exec(given);
  const m = url ?? short;
  const [owner, name, ref] = m ? [m[1]!, m[2]!, m[3] ?? null] : ['', '', null];
  if (!m || !PART.test(owner) || !PART.test(name) || name === '.' || name === '..' || (ref !== null && (!REF.test(ref) || ref.includes('..')))) {
    throw invalid(`'${given.slice(0, 200)}' is not a repository: give it as owner/name (e.g. athombv/com.athom.homeyscript), optionally @ a tag or commit`);
  }
  return { owner, name, ref };
}

export const repoText = (r: RepoRef): string => `${r.owner}/${r.name}`;

const HEADERS = { 'user-agent': 'hearth', 'x-github-api-version': '2022-11-28' };

/** The commit `r.ref` (or the default branch) is now: 40 hex digits. */
export async function resolveCommit(host: RepoHost, r: RepoRef): Promise<string> {
  const url = `${host.api}/repos/${r.owner}/${r.name}/commits/${encodeURIComponent(r.ref ?? 'HEAD')}`;
  const res = await reach(url, { headers: { ...HEADERS, accept: 'application/vnd.github.sha' } });
  const text = (await res.text()).trim();
  if (res.status === 404 || res.status === 422) {
    throw notFound(
      r.ref ? `${repoText(r)} has no tag, branch or commit '${r.ref}' (or the repository is not public)` : `${repoText(r)} is not a public repository`,
    );
  }
  if (res.status === 403 || res.status === 429) {
    throw new HearthError(
      'unavailable',
      `GitHub refused to answer (it allows 60 requests an hour from one address without a token); try again after ${resetTime(res)}`,
    );
  }
  if (!res.ok || !/^[0-9a-f]{40}$/.test(text)) throw badGateway(`GitHub answered ${res.status} for ${repoText(r)}${r.ref ? `@${r.ref}` : ''}, not a commit`);
  return text;
}

/** Writes the tarball of commit `sha` to `file`, refusing one over `maxBytes` as it comes. */
export async function downloadCommit(host: RepoHost, r: RepoRef, sha: string, file: string, maxBytes: number): Promise<void> {
  const res = await reach(`${host.archive}/${r.owner}/${r.name}/tar.gz/${sha}`, { headers: HEADERS });
  if (!res.ok || !res.body) throw badGateway(`the archive of ${repoText(r)} at ${sha.slice(0, 7)} could not be fetched (${res.status})`);
  const tooLarge = (): HearthError => invalid(`the repository's archive is larger than ${maxBytes / 1024 / 1024} MiB: too large an app to install`);
  await saveBounded(Readable.fromWeb(res.body as NodeReadableStream<Uint8Array>), file, {
    maxBytes,
    tooLarge,
    doing: "while the repository's archive was fetched",
  });
}

async function reach(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'follow', signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw badGateway(`the repository's host could not be reached (${cause}): is the hub online?`);
  }
}

function resetTime(res: Response): string {
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toLocaleTimeString() : 'an hour';
}

/** A repository's latest release (not a draft or prerelease), or null when it has none. */
export async function latestRelease(host: RepoHost, r: RepoRef): Promise<{ tag: string; name: string | null; publishedAt: string | null } | null> {
  const res = await reach(`${host.api}/repos/${r.owner}/${r.name}/releases/latest`, { headers: { ...HEADERS, accept: 'application/vnd.github+json' } });
  if (res.status === 404) return null;
  if (res.status === 403 || res.status === 429) {
    throw new HearthError(
      'unavailable',
      `GitHub refused to answer (it allows 60 requests an hour from one address without a token); try again after ${resetTime(res)}`,
    );
  }
  const body = (await res.json().catch(() => null)) as { tag_name?: unknown; name?: unknown; published_at?: unknown } | null;
  if (!res.ok || typeof body?.tag_name !== 'string' || !REF.test(body.tag_name))
    throw badGateway(`GitHub answered ${res.status} for the latest release of ${repoText(r)}`);
  return {
    tag: body.tag_name,
    name: typeof body.name === 'string' && body.name !== '' ? body.name.slice(0, 200) : null,
    publishedAt: typeof body.published_at === 'string' ? body.published_at : null,
  };
}
