/**
 * What the installation tests ask of a hub in a container, from outside: free ports, HTTP with a
 * token, waiting with a bound, the example apps running (with their stderr when they do not),
 * and the release tarballs, made once per target with the real release script.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT, tempDir } from '../helpers/hub.js';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * A GET, asked again when the first fails (the failed connection is gone, so on another): a kept-alive connection the hub
 * closed as idle (or a hub restarted since) fails once, the more often the slower the hub (under
 * emulation), as any HTTP client's retry of an idempotent request would hide.
 */
async function fetchGet(url: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  try {
    return await fetch(url, { headers });
  } catch {
    await sleep(200);
    return await fetch(url, { headers });
  }
}

/** The status of a GET (0 when nothing answers). */
export async function get(url: string, token?: string): Promise<number> {
  try {
    return (await fetchGet(url, token)).status;
  } catch {
    return 0;
  }
}

export async function getJson<T>(url: string, token: string): Promise<T> {
  const res = await fetchGet(url, token);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Asks `ok` every half second, `tries` times, until it says yes. */
export async function until(what: string, ok: () => Promise<boolean> | boolean, tries = 120): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await ok()) return;
    await sleep(500);
  }
  throw new Error(`${what} did not happen`);
}

/** Waits until the hub runs every app of `ids` (onInit resolved); says how each one is when it does not. */
export async function untilAppsRun(what: string, url: string, token: string, ids: string[], tries = 120): Promise<void> {
  const seen: Record<string, unknown> = {};
  const ready = async (id: string): Promise<boolean> => {
    try {
      const res = await fetch(`${url}/apps/app/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      const app = (await res.json()) as { ready?: boolean; state?: string; crashedMessage?: string | null };
      seen[id] = { status: res.status, state: app.state, crashedMessage: app.crashedMessage };
      return res.ok && app.ready === true;
    } catch (err) {
      seen[id] = String(err);
      return false;
    }
  };
  await until(what, async () => (await Promise.all(ids.map(ready))).every(Boolean), tries).catch(async (err: Error) => {
    // What the apps printed last says why they did not run.
    const stderr: Record<string, string> = {};
    for (const id of ids) {
      const res = await fetch(`${url}/apps/app/${id}/crashlog`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      }).catch(() => null);
      stderr[id] = res ? (((await res.json()) as { stderr?: string }).stderr?.slice(-1500) ?? `${res.status}`) : 'no answer';
    }
    throw new Error(`${err.message}: ${JSON.stringify(seen)}; their stderr: ${JSON.stringify(stderr, null, 1)}`);
  });
}

/** The example apps every release brings. */
export const EXAMPLES = ['com.hearth.greeter', 'com.hearth.matter', 'com.hearth.sysmon', 'com.hearth.virtual', 'com.hearth.zigbee2mqtt'];

const releases = new Map<string, string>();
/**
 * The release tarball for `target` (linux-x64, linux-arm64, linux-armhf), made with the real
 * release script from the built checkout, once per target and test file, into a temp folder
 * (the test run's temp root goes when the run ends).
 */
export async function releaseTarball(target: string): Promise<string> {
  const made = releases.get(target);
  if (made) return made;
  const out = await tempDir('hearth-device-release-');
  const printed = execFileSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), out, '--no-build', '--target', target], {
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  const { file } = JSON.parse(printed.trim().split('\n').pop()!) as { file: string };
  releases.set(target, file);
  return file;
}
