/**
 * Whether a newer release is out for an app fetched from a repository (HACS' way: the latest
 * release, not a draft or prerelease; upgraded only when the owner asks). Asked when the Apps
 * page shows the app, and kept for CHECK_MS per app: GitHub allows 60 requests an hour from one
 * address without a token, shared by a whole home's network.
 */
import type { AppRecord } from '../host/app-record.js';
import { latestRelease, parseRepo, type RepoHost } from './repository.js';

export const CHECK_MS = 6 * 60 * 60_000;

export interface SourceUpdate {
  /** The latest release's tag and name, or null when the repository has none. */
  latest: { tag: string; name: string | null; publishedAt: string | null } | null;
  /** Whether it is another release than the one installed (the ref asked for). */
  newer: boolean;
  checkedAt: string;
}

export class SourceUpdates {
  private readonly known = new Map<string, { at: number; repo: string; answer: Omit<SourceUpdate, 'newer' | 'checkedAt'> }>();

  constructor(private readonly host: RepoHost) {}

  /** The latest release of `source`'s repository (asked at most once per CHECK_MS), and whether it is newer. */
  async check(id: string, source: NonNullable<AppRecord['source']>, now = Date.now()): Promise<SourceUpdate> {
    let seen = this.known.get(id);
    if (!seen || seen.repo !== source.repo || now - seen.at > CHECK_MS) {
      seen = { at: now, repo: source.repo, answer: { latest: await latestRelease(this.host, parseRepo(source.repo)) } };
      this.known.set(id, seen);
    }
    const latest = seen.answer.latest;
    return { latest, newer: latest !== null && latest.tag !== source.ref, checkedAt: new Date(seen.at).toISOString() };
  }
}
