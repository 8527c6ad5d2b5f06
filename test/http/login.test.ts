/**
 * One-time sign-in links against a real hub: `hearth login` prints the link, the code trades for
 * a session token once and within its time, sessions are tokens (listed, named after the
 * browser, revocable), and a token cannot hand on scopes it does not hold.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { pause } from '../helpers/poll.js';
import { decode, modulesOfBlocks } from '../helpers/qr.js';

const exec = promisify(execFile);
const T = '/api/manager/tokens';
let hub: RunningHub;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.cleanup();
});

interface Err {
  error: string;
  error_description: string;
}
interface Session {
  id: string;
  token: string;
  name: string;
  scopes: string[];
  session: boolean;
}

const redeem = (code: string, browser = 'Test browser') => hub.call<Session & Err>('POST', `${T}/login/redeem`, { token: null, body: { code, browser } });

async function cliLogin(...args: string[]): Promise<{ link: string; code: string; said: string }> {
  const { stdout, stderr } = await exec(process.execPath, [CLI, 'login', '--port', String(hub.port), ...args], {
    env: { PATH: process.env.PATH, HEARTH_TOKEN: OWNER },
  });
  const link = stdout.trim();
  const m = new RegExp(`^http://[^/]+:${hub.port}/#login=([A-Za-z0-9_-]+)$`).exec(link);
  if (!m) throw new Error(`not a link: ${stdout}`);
  return { link, code: m[1]!, said: stderr };
}

describe('one-time sign-in links', { timeout: 30_000 }, () => {
  it('hearth login prints a link whose code signs a browser in once, with the chosen scopes, as a listed and revocable session', async () => {
    const { link, code, said } = await cliLogin('--scope', 'service.dashboard.readonly', '--minutes', '2');
    expect(said).toMatch(/works once/);
    // The test hub listens on 127.0.0.1 alone: the link is where it answers (not this machine's
    // LAN address, which the CLI's own default host would give), and it says a phone cannot open it.
    expect(link.startsWith(`http://127.0.0.1:${hub.port}/`)).toBe(true);
    expect((await fetch(link.replace(/#.*$/, ''))).status).toBe(200);
    expect(said).toContain('The hub listens on 127.0.0.1 only: this link opens on this machine alone. To sign a phone in, start the hub with --host 0.0.0.0.');
    // The same link as a QR code in the terminal, on stderr; read back where zbar is installed.
    const qr = said.split('\n').filter((line) => /^[█▀▄ ]+$/.test(line) && line.length > 20);
    expect(qr.length).toBeGreaterThan(10);
    if (existsSync('/usr/bin/zbarimg')) expect(await decode(modulesOfBlocks(qr.join('\n')))).toBe(link);
    const s = await redeem(code, 'Firefox on Linux');
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ name: 'Firefox on Linux (signed in by link)', scopes: ['service.dashboard.readonly'], session: true });
    expect((await hub.call('GET', '/api/manager/dashboards/dashboard', { token: s.body.token })).status).toBe(200);
    expect((await hub.call('GET', `${T}/token`, { token: s.body.token })).status).toBe(403);

    const again = await redeem(code);
    expect(again.status).toBe(401);
    expect(again.body.error_description).toMatch(/already used/);

    const listed = (await hub.call<Record<string, Session>>('GET', `${T}/token`)).body[s.body.id];
    expect(listed).toMatchObject({ session: true, name: 'Firefox on Linux (signed in by link)' });
    expect((await hub.call('DELETE', `${T}/token/${s.body.id}`)).status).toBe(204);
    expect((await hub.call('GET', '/api/manager/dashboards/dashboard', { token: s.body.token })).status).toBe(401);
  });

  it('by default the session gets every scope but the owner’s; a code expires', async () => {
    const { code } = await cliLogin();
    const s = await redeem(code);
    expect(s.body.scopes).toContain('SYSTEM');
    expect(s.body.scopes).not.toContain('*');

    const short = await hub.call<{ code: string; expiresAt: string }>('POST', `${T}/login`, { body: { scopes: ['service.speech'], ttlSeconds: 1 } });
    expect(short.status).toBe(201);
    expect(Date.parse(short.body.expiresAt) - Date.now()).toBeLessThanOrEqual(1000);
    await pause(1100, 'the 1 s code expired (redeeming it to see would use it up)');
    const late = await redeem(short.body.code);
    expect(late.status).toBe(401);
    expect(late.body.error_description).toMatch(/expired/);
    const unknown = await redeem('not-a-code');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error_description).toMatch(/not one the hub knows/);
  });

  it('refuses bad input with a sentence, and scopes the caller does not hold', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ scopes: [] }, /at least one scope/],
      [{ scopes: ['everything'] }, /each scope must be one of/],
      [{ scopes: ['service.speech'], ttlSeconds: 601 }, /at most 600 seconds/],
      [{ scopes: ['*'] }, /each scope must be one of/],
    ];
    for (const [body, why] of cases) {
      const r = await hub.call<Err>('POST', `${T}/login`, { body });
      expect(r.status).toBe(400);
      expect(r.body.error_description).toMatch(why);
    }
    const system = (await hub.call<{ token: string }>('POST', `${T}/token`, { body: { name: 'sys', scopes: ['SYSTEM'] } })).body.token;
    const beyond = await hub.call<Err>('POST', `${T}/login`, { token: system, body: { scopes: ['service.dashboard'] } });
    expect(beyond.status).toBe(403);
    expect(beyond.body.error_description).toMatch(/cannot grant scopes it does not hold: service.dashboard/);
    const reader = (await hub.call<{ token: string }>('POST', `${T}/token`, { body: { name: 'r', scopes: ['service.dashboard.readonly'] } })).body.token;
    expect((await hub.call('POST', `${T}/login`, { token: reader, body: { scopes: ['service.dashboard.readonly'] } })).status).toBe(403);
    expect((await hub.call<Err>('POST', `${T}/login/redeem`, { token: null, body: { code: 'x' } })).status).toBe(400);
  });
});
