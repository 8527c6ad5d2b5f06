/**
 * Hostile Homey apps for the containment tests: each tries one way out of its sandbox from a
 * route of its Web API and answers what happened, so a test asks and asserts on the outcome.
 * The paths an attack needs (the hub's data dir and port, an outside server) arrive as settings.
 */
import { writeHomeyApp } from '../../homey/apps.js';

const app = (body: string) => `'use strict';
const Homey = require('homey');
module.exports = class Hostile extends Homey.App {
  async onInit() {
${body}
  }
};
`;

/** `route` -> the body of an async function (homey, fs, net, path in scope) returning JSON. */
const api = (routes: Record<string, string>) =>
  `'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
/** The error code of fn(), or 'ok'. */
const attempt = (fn) => { try { fn(); return 'ok'; } catch (err) { return err.code || err.name || String(err); } };
const attemptAsync = async (fn) => { try { await fn(); return 'ok'; } catch (err) { return err.code || err.name || String(err); } };
module.exports = {
${Object.entries(routes)
  .map(([name, body]) => `  async ${name}({ homey, query, body }) {\n${body}\n  },`)
  .join('\n')}
};
`;

const routes = (names: string[], method = 'GET') => Object.fromEntries(names.map((n) => [n, { method, path: `/${n}` }]));

/** Connects to host:port; resolves 'ok' or the error code. */
const CONNECT = `(host, port) => new Promise((resolve) => {
  const s = net.connect({ host, port: Number(port), timeout: 3000 });
  s.once('connect', () => { s.destroy(); resolve('ok'); });
  s.once('timeout', () => { s.destroy(); resolve('ETIMEDOUT'); });
  s.once('error', (err) => resolve(err.code || String(err)));
})`;

export async function writeHostileApps(appsDir: string): Promise<void> {
  await writeHomeyApp(appsDir, 'com.hostile.bystander', {
    json: { api: routes(['state']) },
    files: {
      'app.js': app(`    this.started = Date.now();
    require('node:fs').writeFileSync(this.homey.tmpdir + '/secret', 'bystander secret');`),
      'api.js': api({ state: 'return { started: homey.app.started };' }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.signals', {
    json: { api: routes(['attack']) },
    files: {
      'app.js': app(''),
      'api.js': api({
        attack: `    const out = { ppid: process.ppid, pid: process.pid };
    out.proc = attempt(() => fs.readdirSync('/proc'));
    let pids = [];
    try { pids = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).map(Number); } catch {}
    out.visible = pids;
    out.stopped = [];
    for (const p of pids) if (p !== process.pid && attempt(() => process.kill(p, 'SIGSTOP')) === 'ok') out.stopped.push(p);
    // In its own pid namespace an app's parent is the namespace's reaper (bubblewrap, pid 1), and
    // the hub's pid names no process it can reach (signal 0 only asks whether it could).
    out.hub = attempt(() => process.kill(Number(query.hub), 0));
    return out;`,
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.sockets', {
    json: { api: routes(['plant']) },
    files: {
      'app.js': app(''),
      'api.js': api({
        plant: `    const data = homey.settings.get('dataDir');
    const listen = (p) => new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', (err) => resolve(err.code || String(err)));
      server.listen(p, () => resolve('ok'));
    });
    return {
      backup: await listen(path.join(data, 'backups', '9999-12-31T00-00-00Z.tar.gz')),
      storeTemp: await listen(path.join(data, '.db.json.tmp')),
    };`,
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.reader', {
    json: { api: routes(['read']) },
    files: {
      'app.js': app(''),
      'api.js': api({
        read: `    const data = homey.settings.get('dataDir');
    const read = (p) => attempt(() => fs.readFileSync(p));
    return {
      ownerToken: read(path.join(data, 'owner-token')),
      db: read(path.join(data, 'db.json')),
      otherApp: read(path.join(data, 'apps', 'com.hostile.bystander', 'userdata', 'secret')),
      shadow: read('/etc/shadow'),
      nothing: read('/etc/no-such-file-anywhere'),
      sysDevices: read('/sys/devices/system/cpu/online'),
    };`,
      }),
    },
  });

  for (const [id, permissions] of [
    ['com.hostile.net', []],
    ['com.hostile.netok', ['hearth:network:access']],
  ] as const) {
    await writeHomeyApp(appsDir, id, {
      json: { permissions, api: routes(['connect']) },
      files: {
        'app.js': app(''),
        'api.js': api({
          connect: `    const connect = ${CONNECT};
    return {
      hub: await connect('127.0.0.1', homey.settings.get('hubPort')),
      outside: await connect(homey.settings.get('outsideHost'), homey.settings.get('outsidePort')),
    };`,
        }),
      },
    });
  }

  await writeHomeyApp(appsDir, 'com.hostile.memory', {
    json: { api: routes(['alloc']) },
    files: {
      'app.js': app(''),
      'api.js': api({
        alloc: `    const held = [];
    let mib = 0;
    try {
      while (mib < 1024) { held.push(Buffer.alloc(8 * 1024 * 1024, 1)); mib += 8; }
      return { reached: mib, error: null };
    } catch (err) {
      return { reached: mib, error: err.message };
    }`,
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.fork', {
    json: { api: routes(['fork']) },
    files: {
      'app.js': app(''),
      'api.js': api({
        fork: `    const cp = require('node:child_process');
    return {
      fork: attempt(() => cp.fork(__filename)),
      spawn: attempt(() => cp.spawn('/bin/sh', ['-c', ':'])),
      execSync: attempt(() => cp.execSync('true')),
      worker: attempt(() => new (require('node:worker_threads').Worker)('1', { eval: true })),
      binding: attempt(() => process.binding('spawn_sync')),
      dlopen: attempt(() => process.dlopen({ exports: {} }, '/usr/lib/x86_64-linux-gnu/libc.so.6')),
    };`,
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.disk', {
    json: { hearth: { diskMb: 2 }, api: routes(['fill'], 'POST') },
    files: {
      'app.js': app(''),
      'api.js': api({
        // Two files: no one file may be larger than the quota (RLIMIT_FSIZE).
        fill: `    fs.writeFileSync(path.join(homey.tmpdir, 'filler-1'), Buffer.alloc(1.5 * 1024 * 1024, 7));
    fs.writeFileSync(path.join(homey.tmpdir, 'filler-2'), Buffer.alloc(1.5 * 1024 * 1024, 7));
    return { wrote: 3 };`,
      }),
    },
  });

  // Writes where no walk of its folder looks: into files it deleted and keeps open.
  await writeHomeyApp(appsDir, 'com.hostile.hidden', {
    json: { hearth: { diskMb: 2 }, api: routes(['big', 'hide'], 'POST') },
    files: {
      'app.js': app(''),
      'api.js': api({
        big: `    const file = path.join(homey.tmpdir, 'big');
    const fd = fs.openSync(file, 'w');
    let written = 0;
    let code = 'ok';
    try {
      for (let i = 0; i < 6; i++) written += fs.writeSync(fd, Buffer.alloc(512 * 1024, 1));
    } catch (err) {
      code = err.code;
    } finally {
      fs.closeSync(fd);
      fs.unlinkSync(file);
    }
    return { code, written };`,
        hide: `    globalThis.hidden = [];
    for (const name of ['a', 'b']) {
      const file = path.join(homey.tmpdir, name);
      const fd = fs.openSync(file, 'w');
      fs.unlinkSync(file);
      for (let i = 0; i < 3; i++) fs.writeSync(fd, Buffer.alloc(512 * 1024, 2));
      globalThis.hidden.push(fd);
    }
    return { hidden: globalThis.hidden.length };`,
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.settings', {
    json: { api: routes(['keys'], 'POST') },
    files: {
      'app.js': app(''),
      'api.js': api({
        keys: `    let stored = 0;
    try {
      for (let i = 0; i < 100000; i++) { homey.settings.set('key' + i, i); stored++; }
      return { stored, error: null };
    } catch (err) {
      return { stored, error: err.message };
    }`,
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.spin', {
    json: { api: routes(['spin'], 'POST') },
    files: {
      'app.js': app(''),
      'api.js': api({ spin: '    for (;;) {}' }),
    },
  });

  // Stops reading its channel without using a core (the CPU budget would end a spinner first):
  // its event loop sleeps in Atomics.wait while the hub keeps sending it settings changes.
  await writeHomeyApp(appsDir, 'com.hostile.deaf', {
    json: { api: routes(['sleep'], 'POST') },
    files: {
      'app.js': app(''),
      'api.js': api({ sleep: '    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);' }),
    },
  });

  // Names itself as bubblewrap, hoping the hub samples, renices and signals bubblewrap instead.
  await writeHomeyApp(appsDir, 'com.hostile.title', {
    json: { api: { ...routes(['nice']), ...routes(['spin'], 'POST') } },
    files: {
      'app.js': `process.title = 'bwrap';\n${app('')}`,
      'api.js': api({
        nice: "    return { nice: require('node:os').getPriority(), title: process.title };",
        spin: '    for (;;) {}',
      }),
    },
  });

  await writeHomeyApp(appsDir, 'com.hostile.fds', {
    json: { api: routes(['fds']) },
    files: {
      'app.js': app(''),
      'api.js': api({
        fds: `    const open = [];
    for (let fd = 0; fd < 256; fd++) if (attempt(() => fs.fstatSync(fd)) === 'ok') open.push(fd);
    return { open };`,
      }),
    },
  });
}

export const HOSTILE_IDS = [
  'com.hostile.bystander',
  'com.hostile.signals',
  'com.hostile.sockets',
  'com.hostile.reader',
  'com.hostile.net',
  'com.hostile.netok',
  'com.hostile.memory',
  'com.hostile.fork',
  'com.hostile.disk',
  'com.hostile.hidden',
  'com.hostile.settings',
  'com.hostile.spin',
  'com.hostile.deaf',
  'com.hostile.fds',
  'com.hostile.title',
];
