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
import { probeSandbox } from '../../src/apps/sandbox.js';
import { startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { homeyApp, removeAll, writeApp } from '../apps/helpers.js';

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
    expect(await probeSandbox('auto')).toEqual({ containment: 'namespaces', reason: null, nestedUserns: 'forbidden', note: null });
  });

  it('finds namespaces, nested user namespaces not forbidden, where bubblewrap cannot forbid them', async () => {
    const bin = await bwrapWithoutDisableUserns();
    expect(await probeSandbox('auto', join(bin, 'bwrap'))).toEqual({
      containment: 'namespaces',
      reason: null,
      nestedUserns: 'not-forbidden',
      note: 'bwrap: cannot open /proc/sys/user/max_user_namespaces: Read-only file system',
    });
  });

  it('falls back to the permission model, saying why, where bubblewrap is missing', async () => {
    expect(await probeSandbox('auto', '/nonexistent/bwrap')).toEqual({
      containment: 'permission-model-only',
      reason: 'bubblewrap is not installed (apt-get install bubblewrap)',
      nestedUserns: 'not-forbidden',
      note: null,
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
