/**
 * How the hub finds out whether apps can have namespaces: bubblewrap tried once with the
 * namespaces apps get. Where it is missing the hub runs apps with the permission model alone and
 * says why; asked for namespaces (`--app-sandbox bwrap`) it refuses to start instead. Where it
 * cannot forbid nested user namespaces (a container's read-only /proc/sys, as bubblewrap 0.11+
 * on Debian 13 meets it) apps still get namespaces, and the hub says what they lack.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../../src/apps/host/sandbox.js';
import { startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { homeyApp, removeAll, writeApp } from '../helpers.js';

const dirs: string[] = [];
afterAll(() => removeAll(...dirs));

/** A `bwrap` that fails as bubblewrap 0.12 does in a container when asked to --disable-userns. */
async function bwrapWithoutDisableUserns(): Promise<string> {
  const bin = await tempDir('hearth-bwrap-');
  dirs.push(bin);
  const script = join(bin, 'bwrap');
  await writeFile(
    script,
    `#!/bin/sh
for a in "$@"; do
  if [ "$a" = --disable-userns ]; then echo 'bwrap: cannot open /proc/sys/user/max_user_namespaces: Read-only file system' >&2; exit 1; fi
done
exec /usr/bin/bwrap "$@"
`,
  );
  await chmod(script, 0o755);
  return bin;
}

describe('probeSandbox', () => {
  it('finds namespaces where bubblewrap works (this machine: .ci/run installs it)', async () => {
    expect(await probeSandbox('auto')).toEqual({ containment: 'namespaces', reason: null, nestedUserns: 'forbidden', note: null, hold: null });
  });

  it('finds namespaces, nested user namespaces not forbidden, where bubblewrap cannot forbid them', async () => {
    const bin = await bwrapWithoutDisableUserns();
    expect(await probeSandbox('auto', join(bin, 'bwrap'))).toEqual({
      containment: 'namespaces',
      reason: null,
      nestedUserns: 'not-forbidden',
      note: 'bwrap: cannot open /proc/sys/user/max_user_namespaces: Read-only file system',
      hold: null,
    });
  });

  it('falls back to the permission model where bubblewrap is missing, and holds the apps until the owner decides', async () => {
    expect(await probeSandbox('auto', '/nonexistent/bwrap')).toEqual({
      containment: 'permission-model-only',
      reason: 'bubblewrap is not installed (apt-get install bubblewrap)',
      nestedUserns: 'not-forbidden',
      note: null,
      hold: "the hub starts no app without namespaces of its own (bubblewrap is not installed (apt-get install bubblewrap)): there an app could signal the hub and reach its API. Install bubblewrap, or start the hub with --app-sandbox off (on a device: HEARTH_APP_SANDBOX=off in /etc/default/hearth) to run apps with Node's permission model alone",
    });
  });

  it('refuses when namespaces were asked for and cannot be had', async () => {
    await expect(probeSandbox('bwrap', '/nonexistent/bwrap')).rejects.toThrow('--app-sandbox bwrap was asked for, but bubblewrap is not installed');
  });

  it('says so when they are turned off', async () => {
    expect(await probeSandbox('off')).toEqual({
      containment: 'permission-model-only',
      reason: 'app namespaces are turned off (--app-sandbox off)',
      nestedUserns: 'not-forbidden',
      note: null,
      hold: null,
    });
  });
});

describe('a hub whose bubblewrap cannot forbid nested user namespaces', () => {
  it('runs its apps in namespaces all the same, and says what they lack', { timeout: 60_000 }, async () => {
    const bin = await bwrapWithoutDisableUserns();
    const appsDir = await tempDir('hearth-apps-');
    dirs.push(appsDir);
    await writeApp(appsDir, 'com.test.inside', { code: homeyApp(`async onInit() { this.log('inside'); }`) });
    const hub = await startHub({ appsDir, env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } });
    try {
      const app = await poll(
        async () => (await hub.call<{ state: string; crashedMessage: string | null }>('GET', '/api/manager/apps/app/com.test.inside')).body,
        (a) => a.state === 'running' || a.crashedMessage !== null,
        'the app to run',
      );
      expect(app).toMatchObject({ state: 'running', crashedMessage: null });
      expect((await hub.call('GET', '/api/manager/apps/state')).body).toMatchObject({ containment: 'namespaces', containmentReason: null });
      expect(hub.output.join('\n')).toContain('bubblewrap cannot keep apps from making user namespaces here');
    } finally {
      await hub.cleanup();
    }
  });
});

describe('a hub where auto finds no namespaces', () => {
  it('starts no app until the owner decides, and says so in the app, the apps state and its log', { timeout: 60_000 }, async () => {
    const appsDir = await tempDir('hearth-apps-');
    const noTools = await tempDir('hearth-no-bwrap-');
    dirs.push(appsDir, noTools);
    await writeApp(appsDir, 'com.test.held', { code: homeyApp(`async onInit() { this.log('started'); }`) });
    // No bubblewrap on its PATH (nothing at all: node is the hub's own binary).
    const hub = await startHub({ appsDir, args: ['--app-sandbox', 'auto'], env: { PATH: noTools } });
    try {
      const why =
        "the hub starts no app without namespaces of its own (bubblewrap is not installed (apt-get install bubblewrap)): there an app could signal the hub and reach its API. Install bubblewrap, or start the hub with --app-sandbox off (on a device: HEARTH_APP_SANDBOX=off in /etc/default/hearth) to run apps with Node's permission model alone";
      const app = (await hub.call<{ state: string; crashedMessage: string | null; exitCount: number }>('GET', '/api/manager/apps/app/com.test.held')).body;
      expect(app).toMatchObject({ state: 'stopped', crashedMessage: why, exitCount: 0 });
      expect((await hub.call('GET', '/api/manager/apps/state')).body).toMatchObject({ containment: 'permission-model-only', held: why, running: 0 });
      // Enabling or restarting it does not start it either.
      expect((await hub.call<{ state: string }>('PUT', '/api/manager/apps/app/com.test.held/enable')).body.state).toBe('stopped');
      const log = (await hub.call<{ stdout: string }>('POST', '/api/manager/apps/app/com.test.held/crashlog', { body: {} })).body.stdout;
      expect(log).not.toContain('started');
    } finally {
      await hub.cleanup();
    }
  });
});
