/**
 * How the hub finds out whether apps can have namespaces: bubblewrap tried once with the
 * namespaces apps get. Where it is missing the hub runs apps with the permission model alone and
 * says why; asked for namespaces (`--app-sandbox bwrap`) it refuses to start instead.
 */
import { describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/apps/sandbox.js';

describe('probeSandbox', () => {
  it('finds namespaces where bubblewrap works (this machine: .ci/run installs it)', async () => {
    expect(await probeSandbox('auto')).toEqual({ containment: 'namespaces', reason: null });
  });

  it('falls back to the permission model, saying why, where bubblewrap is missing', async () => {
    expect(await probeSandbox('auto', '/nonexistent/bwrap')).toEqual({
      containment: 'permission-model-only',
      reason: 'bubblewrap is not installed (apt-get install bubblewrap)',
    });
  });

  it('refuses when namespaces were asked for and cannot be had', async () => {
    await expect(probeSandbox('bwrap', '/nonexistent/bwrap')).rejects.toThrow('--app-sandbox bwrap was asked for, but bubblewrap is not installed');
  });

  it('says so when they are turned off', async () => {
    expect(await probeSandbox('off')).toEqual({ containment: 'permission-model-only', reason: 'app namespaces are turned off (--app-sandbox off)' });
  });
});
