/** Configuration precedence: flags > HEARTH_* environment > defaults; bad values refused. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('uses the documented defaults (the README flag table)', () => {
    const c = loadConfig({}, {});
    expect(c.port).toBe(8720);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.appsDir).toMatch(/\/apps$/);
    expect(c.logLevel).toBe('info');
    expect(c.audioOut).toBe('default');
    expect(c.ownerToken).toBeUndefined();
    expect(c.storeLocation).toBe(`${c.dataDir}/store`);
    expect(c.appStartTimeoutS).toBe(15);
    expect(loadConfig({}, { HEARTH_APP_START_TIMEOUT_S: '120' }).appStartTimeoutS).toBe(120);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('lets the environment override defaults and flags override the environment', () => {
    const env = { HEARTH_PORT: '9000', HEARTH_LOG_LEVEL: 'debug', HEARTH_OWNER_TOKEN: 'hth_x' };
    expect(loadConfig({}, env).port).toBe(9000);
    expect(loadConfig({ port: '9100' }, env).port).toBe(9100);
    expect(loadConfig({ port: '9100' }, env).logLevel).toBe('debug');
    expect(loadConfig({}, env).ownerToken).toBe('hth_x');
  });

  it('refuses an apps folder inside the data dir, where a package upgrade would replace the userdata', () => {
    expect(() => loadConfig({ 'data-dir': '/srv/h/data', 'apps-dir': '/srv/h/data/apps' }, {})).toThrow(
      'the apps folder /srv/h/data/apps is inside the data dir /srv/h/data: put it beside it (e.g. --apps-dir /srv/h/apps)',
    );
    expect(() => loadConfig({ 'data-dir': '/srv/h/data', 'apps-dir': '/srv/h/data' }, {})).toThrow(ConfigError);
    expect(loadConfig({ 'data-dir': '/srv/h/data', 'apps-dir': '/srv/h/apps' }, {}).appsDir).toBe('/srv/h/apps');
    expect(loadConfig({ 'data-dir': '/srv/h/data', 'apps-dir': '/srv/h/data-apps' }, {}).appsDir).toBe('/srv/h/data-apps');
  });

  it('refuses bad values, naming where they came from', () => {
    expect(() => loadConfig({ port: 'eighty' }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ port: '70000' }, {})).toThrow(/--port/);
    expect(() => loadConfig({}, { HEARTH_LOG_LEVEL: 'loud' })).toThrow(/HEARTH_LOG_LEVEL/);
    expect(() => loadConfig({ 'time-zone': 'Mars/Olympus' }, {})).toThrow(/time zone/);
  });

  it('keeps an http(s) store URL as is and resolves a folder', () => {
    expect(loadConfig({ store: 'https://example.org/apps/' }, {}).storeLocation).toBe('https://example.org/apps/');
    expect(loadConfig({ store: 'catalogue' }, {}).storeLocation).toMatch(/^\/.*\/catalogue$/);
  });
});
