/**
 * OAuth2 sign-in without Athom's cloud (see src/homey/managers/cloud.cts): the callbacks apps made
 * (`createOAuth2Callback`), and the address a person pasted after signing in at the provider, whose
 * `code` (or `error`) goes to the newest callback of the pairing session's app. The address is the
 * person's, so it is read, never fetched: only its query string counts.
 */
import { randomUUID } from 'node:crypto';
import { HearthError } from '../../core/errors.js';

/** Callbacks kept per app: a pairing makes one; more are abandoned sign-ins. */
const PER_APP = 8;

export class OAuth2Callbacks {
  private readonly byApp = new Map<string, string[]>();

  /** An app made a callback: its id. */
  create(appId: string): { id: string } {
    const id = randomUUID();
    const ids = [...(this.byApp.get(appId) ?? []), id].slice(-PER_APP);
    this.byApp.set(appId, ids);
    return { id };
  }

  forget(appId: string): void {
    this.byApp.delete(appId);
  }

  /**
   * What the pasted address says, for the app's newest callback: `{id, code}` or `{id, error}`;
   * a 400 with what to do when it holds neither.
   */
  read(appId: string, pasted: string): { id: string; code: string | null; error: string | null } {
    const id = this.byApp.get(appId)?.at(-1);
    if (!id) throw new HearthError('conflict', 'this pairing has not started a sign-in (its driver made no OAuth2 callback)');
    let url: URL;
    try {
      url = new URL(pasted.trim());
    } catch {
      throw new HearthError('invalid_parameter', 'paste the whole address of the page the sign-in ended on (it starts with https://)');
    }
    const params = url.searchParams.size > 0 ? url.searchParams : new URLSearchParams(url.hash.replace(/^#/, ''));
    const code = params.get('code');
    const error = params.get('error');
    if (code) return { id, code, error: null };
    if (error) return { id, code: null, error: [error, params.get('error_description')].filter(Boolean).join(': ') };
    throw new HearthError('invalid_parameter', 'that address holds no sign-in code: paste the address of the page the sign-in ended on, after you signed in');
  }
}
