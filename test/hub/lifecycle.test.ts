/**
 * The daemon as an operator meets it: the owner token file, SIGTERM, one hub per data dir,
 * the `hearth token` CLI, and the systemd unit.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loginCommand } from '../../src/login-link.js';
import { CLI, call, ROOT, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';

const exec = promisify(execFile);

describe('owner token', () => {
  it('is made on first start into <data-dir>/owner-token with mode 0600, and works', async () => {
    const hub = await startHub({ ownerToken: null });
    try {
      const file = join(hub.dataDir, 'owner-token');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const token = (await readFile(file, 'utf8')).trim();
      expect(token).toMatch(/^hth_[A-Za-z0-9_-]{43}$/);
      expect((await call(hub.url, 'GET', '/api/manager/i18n/state', { token })).status).toBe(200);
      expect(hub.output.join('\n')).not.toContain(token);
      expect(await readFile(join(hub.dataDir, 'db.json'), 'utf8')).not.toContain(token);
      // A new home is said loudly, with where (a mistyped --data-dir is seen at once).
      const made = hub.output.find((l) => l.includes('made a new, empty home'));
      expect(made && JSON.parse(made)).toMatchObject({ level: 40, dataDir: hub.dataDir });

      // Losing the file and restarting replaces the owner token; the old one stops working.
      await hub.stop();
      await rm(file);
      const again = await startHub({ ownerToken: null, dataDir: hub.dataDir, appsDir: hub.appsDir });
      try {
        expect(again.output.some((l) => l.includes('made a new, empty home'))).toBe(false);
        const fresh = (await readFile(file, 'utf8')).trim();
        expect(fresh).not.toBe(token);
        expect((await call(again.url, 'GET', '/api/manager/i18n/state', { token })).status).toBe(401);
        expect((await call(again.url, 'GET', '/api/manager/i18n/state', { token: fresh })).status).toBe(200);
      } finally {
        await again.kill();
      }
    } finally {
      await hub.cleanup();
    }
  });
});

describe('process lifecycle', () => {
  it('exits 0 on SIGTERM and releases the data dir', async () => {
    const hub = await startHub();
    try {
      expect(await hub.stop()).toBe(0);
      await expect(stat(join(hub.dataDir, 'hearth.lock'))).rejects.toThrow();
    } finally {
      await hub.cleanup();
    }
  });

  it('starts after a power cut: a lock file naming a live process that is not a hub does not stop it', async () => {
    const dataDir = await tempDir();
    const stranger = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      // What a power cut leaves: the pid the last hub had, now taken by another process.
      await writeFile(join(dataDir, 'hearth.lock'), String(stranger.pid));
      const hub = await startHub({ dataDir });
      try {
        expect((await hub.call('GET', '/api/manager/system/ping')).status).toBe(200);
        expect((await readFile(join(dataDir, 'hearth.lock'), 'utf8')).trim()).toBe(String(hub.process.pid));
      } finally {
        await hub.stop();
      }
      // SIGKILLed, the hub leaves its lock file behind; the next hub starts all the same.
      const killed = await startHub({ dataDir });
      await killed.kill('SIGKILL');
      const next = await startHub({ dataDir });
      expect((await next.call('GET', '/api/manager/system/ping')).status).toBe(200);
      await next.cleanup();
    } finally {
      stranger.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a second hub on the same data dir, in one sentence', async () => {
    const hub = await startHub();
    try {
      await expect(startHub({ dataDir: hub.dataDir })).rejects.toThrow(
        `hearth: data dir ${hub.dataDir} is in use by another hearth process (pid ${hub.process.pid}); stop it first`,
      );
      expect((await hub.call('GET', '/api/manager/system/ping')).status).toBe(200);
    } finally {
      await hub.cleanup();
    }
  });

  it('says the command that signs a browser in, as it would be typed here', async () => {
    const hub = await startHub();
    try {
      // A checkout (the tests run in one): npx, with the port and data dir this hub has.
      const line = await poll(
        () => hub.output.find((l) => l.includes('to sign a browser in, run this')),
        (l) => l !== undefined,
        'the sign-in command in the log',
      );
      expect(JSON.parse(line!).command).toBe(`npx hearth login --port ${hub.port} --data-dir ${hub.dataDir}`);
    } finally {
      await hub.cleanup();
    }
    expect(loginCommand({ host: '0.0.0.0', dataDir: '/home/me/hearth/data' }, 8720, { cwd: '/home/me/hearth', inCheckout: true })).toBe('npx hearth login');
    expect(loginCommand({ host: '0.0.0.0', dataDir: '/srv/my home' }, 8720, { cwd: '/', inCheckout: false })).toBe("hearth login --data-dir '/srv/my home'");
    expect(loginCommand({ host: '10.0.0.5', dataDir: '/data' }, 9000, { cwd: '/', inCheckout: false, cli: '/x/cli.js' })).toBe(
      'node /x/cli.js login --port 9000 --host 10.0.0.5',
    );
    expect(loginCommand({ host: '0.0.0.0', dataDir: '/var/lib/hearth/data' }, 8720, { cwd: '/opt/hearth', inCheckout: false, underService: true })).toBe(
      'sudo hearth login',
    );
  });

  it('keeps running when the sign-in hint cannot be worked out (a package.json here that is not JSON)', async () => {
    const root = await tempDir();
    try {
      await writeFile(join(root, 'package.json'), '{ not json');
      const child = spawn(
        process.execPath,
        [CLI, 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', join(root, 'data'), '--apps-dir', join(root, 'apps')],
        {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HEARTH_LOG_LEVEL: 'debug' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d;
      });
      const line = await poll(
        () => out.split('\n').find((l) => l.includes('could not work out the sign-in command')),
        (l) => l !== undefined,
        'the hint given up on',
      );
      const port = JSON.parse(out.split('\n').find((l) => l.includes('"msg":"listening"'))!).port as number;
      expect(JSON.parse(line!).level).toBe(20);
      expect((await call(`http://127.0.0.1:${port}`, 'GET', '/api/manager/system/ping')).status).toBe(200);
      expect(child.exitCode).toBeNull();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('on a busy port says so in one sentence naming --port, and makes nothing', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const root = await tempDir();
    try {
      const port = (busy.address() as AddressInfo).port;
      const res = await run([
        CLI,
        'start',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--data-dir',
        join(root, 'home/data'),
        '--apps-dir',
        join(root, 'home/apps'),
      ]);
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe(
        `hearth: port ${port} on 127.0.0.1 is in use (by another program, or another hearth): stop it, or start hearth on another port with --port <N> (or HEARTH_PORT)`,
      );
      expect(res.stdout).not.toContain('"level":60');
      // No data dir, no owner token, no apps folder with the examples: nothing was made.
      expect(await readdir(root)).toEqual([]);
    } finally {
      busy.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('says in one sentence which folder it cannot write, and how to fix it', async () => {
    // In /tmp itself: the test run's own temporary folder is closed to other users.
    const root = await mkdtemp('/tmp/hearth-unwritable-');
    const args = (data: string) => [CLI, 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', data, '--apps-dir', join(root, 'apps')];
    const uid = process.getuid!();
    try {
      await chmod(root, 0o755);
      // A file where the data dir's folder should be: the same sentence for anyone, root too.
      await writeFile(join(root, 'file'), '');
      const blocked = await run(args(join(root, 'file', 'data')));
      expect(blocked.code).toBe(1);
      expect(blocked.stderr.trim()).toBe(
        `hearth: the data dir ${join(root, 'file', 'data')} cannot be written by uid ${uid} (${join(root, 'file', 'data')}: a file is where a folder should be): give this user the folder, or choose another with --data-dir`,
      );
      expect(await readdir(root)).toEqual(['file']);

      // A folder this user may not write: root may write anywhere, so as root the hub runs as
      // nobody (when nobody can run this node: CI's second Node sits in a folder only root reads).
      const asRoot = uid === 0;
      if (asRoot && spawnSync(process.execPath, ['-e', '0'], { uid: 65534, gid: 65534 }).status !== 0) return;
      if (!asRoot) await chmod(root, 0o555);
      const denied = await run(args(join(root, 'data')), asRoot ? { uid: 65534, gid: 65534 } : {});
      expect(denied.code).toBe(1);
      expect(denied.stderr.trim()).toBe(
        `hearth: the data dir ${join(root, 'data')} cannot be written by uid ${asRoot ? 65534 : uid} (${root}: permission denied): give this user the folder, or choose another with --data-dir`,
      );
      expect(await readdir(root)).toEqual(['file']);
    } finally {
      await chmod(root, 0o755);
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses a data dir that is a file, saying so (not as a permission problem)', async () => {
    const root = await tempDir();
    try {
      await writeFile(join(root, 'file'), 'x');
      const res = spawnSync(process.execPath, [CLI, 'start', '--port', '0', '--data-dir', join(root, 'file'), '--apps-dir', join(root, 'apps')], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(res.status).toBe(1);
      expect(res.stderr.trim()).toBe(`hearth: the data dir ${join(root, 'file')} is a file, not a folder: choose a folder with --data-dir`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses a bad flag with exit code 2 and a sentence; a mistyped one names the nearest flag and the usage', () => {
    const res = spawnSync(process.execPath, [CLI, 'start', '--port', 'eighty'], { encoding: 'utf8' });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain("invalid --port 'eighty'");
    const typo = spawnSync(process.execPath, [CLI, 'start', '--prot', '8080'], { encoding: 'utf8' });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/^hearth: unknown flag '--prot': did you mean --port\?\n\nhearth .*\n\nUsage:/);
    expect(typo.stderr).not.toContain('positional argument');
    expect(spawnSync(process.execPath, [CLI, 'token', 'list', '--zzzz'], { encoding: 'utf8' }).stderr).toMatch(/^hearth: unknown flag '--zzzz'\n/);
  });
});

describe('hearth token', () => {
  it('says which URL it tried when no hub answers, and where the token should come from', async () => {
    const dataDir = await tempDir();
    try {
      const noToken = spawnSync(process.execPath, [CLI, 'token', 'list', '--data-dir', dataDir, '--port', '45999'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
      expect(noToken.status).toBe(2);
      expect(noToken.stderr).toContain(`no token to call the hub with: ${join(dataDir, 'owner-token')} cannot be read (ENOENT)`);
      const noHub = spawnSync(process.execPath, [CLI, 'token', 'list', '--port', '45999'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HEARTH_TOKEN: 'hth_x' },
      });
      expect(noHub.status).toBe(2);
      expect(noHub.stderr).toContain(
        'could not reach the hub at http://127.0.0.1:45999 (ECONNREFUSED); is it running? Point elsewhere with --url, or --port / HEARTH_PORT',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('runs as a command of its own after a build, as npx hearth runs it (its execute bit)', () => {
    const res = spawnSync(CLI, ['version'], { encoding: 'utf8' });
    expect(res.error).toBeUndefined();
    expect(res.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers --help on every command with the usage', () => {
    for (const args of [
      ['token', '--help'],
      ['backup', '-h'],
      ['app', 'pack', '--help'],
      ['restore', '--help'],
      ['start', '--help'],
    ]) {
      const res = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      expect(res.status, args.join(' ')).toBe(0);
      expect(res.stdout, args.join(' ')).toContain('Usage:');
    }
  });

  it('creates, lists and revokes tokens through the running hub', async () => {
    const hub = await startHub({ ownerToken: null });
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, HEARTH_DATA_DIR: hub.dataDir, HEARTH_PORT: String(hub.port), HEARTH_HOST: '127.0.0.1' };
      delete env.HEARTH_TOKEN;
      const created = await exec(
        process.execPath,
        [CLI, 'token', 'create', '--name', 'kitchen', '--scope', 'service.dashboard.readonly', '--scope', 'service.speech'],
        { env },
      );
      const token = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[] };
      // A mistake is said in the CLI's terms: the option, and what to choose from.
      const refused = (args: string[]) => spawnSync(process.execPath, [CLI, 'token', 'create', ...args], { encoding: 'utf8', env });
      const unknown = refused(['--name', 'x', '--scope', 'service.foo']);
      expect(unknown.status).not.toBe(0);
      expect(unknown.stderr).toContain('--scope service.foo is not a scope; the scopes are: service.dashboard, ');
      expect(unknown.stderr).not.toContain('body field');
      expect(refused(['--name', 'x']).stderr).toContain('say what the token may do with --scope (one or more): service.dashboard, ');
      expect(refused(['--scope', 'SYSTEM']).stderr).toContain('give the token a --name');
      expect(token.scopes).toEqual(['service.dashboard.readonly', 'service.speech']);
      expect((await call(hub.url, 'GET', '/api/manager/i18n/state', { token: token.token })).status).toBe(403);

      const listed = JSON.parse((await exec(process.execPath, [CLI, 'token', 'list', '--json'], { env })).stdout) as Record<string, { name: string }>;
      expect(listed[token.id]?.name).toBe('kitchen');
      expect(JSON.stringify(listed)).not.toContain(token.token);
      // For a person: a table, a token per line.
      const table = (await exec(process.execPath, [CLI, 'token', 'list'], { env })).stdout.trimEnd().split('\n');
      expect(table[0]).toMatch(/^ID +NAME +KIND +CREATED \(UTC\) +MAY$/);
      expect(table.find((l) => l.startsWith(token.id))).toMatch(/ kitchen +token +\d{4}-\d\d-\d\d \d\d:\d\d +service\.dashboard\.readonly, service\.speech$/);
      expect(table.join('\n')).not.toContain(token.token);

      await exec(process.execPath, [CLI, 'token', 'revoke', token.id], { env });
      expect((await call(hub.url, 'GET', '/api/manager/i18n/state', { token: token.token })).status).toBe(401);
    } finally {
      await hub.cleanup();
    }
  });
});

describe('systemd unit', () => {
  const unit = join(ROOT, 'systemd/hearth.service');

  it('runs the built CLI that package.json names as bin.hearth', async () => {
    const text = await readFile(unit, 'utf8');
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin: { hearth: string } };
    // Through env: Node is /usr/bin/node from the distribution, /usr/local/bin/node from install.sh.
    // With the daemon's node flags (daemon-flags.test.ts holds them).
    expect(text).toMatch(new RegExp(`^ExecStart=/usr/bin/env node (--[\\w=-]+ )*/opt/hearth/${pkg.bin.hearth} start$`, 'm'));
    for (const line of [
      'Restart=on-failure',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/hearth',
      'PrivateTmp=yes',
      'User=hearth',
    ]) {
      expect(text).toContain(line);
    }
  });

  const analyze = spawnSync('systemd-analyze', ['--version']);
  const NO_ANALYZE = analyze.status === 0 ? '' : ' (skipped: systemd-analyze is not installed)';
  it.skipIf(analyze.status !== 0)(`passes systemd-analyze verify${NO_ANALYZE}`, async () => {
    const res = await exec('systemd-analyze', ['verify', unit]).catch((err: { stderr: string; code: number }) => err);
    expect('code' in res ? res.code : 0, 'stderr' in res ? res.stderr : '').toBe(0);
  });

  // Apps' namespaces cost the unit some hardening; the exposure may not grow past the 3.5 it had
  // before them (its figure on systemd's scale of 0, safest, to 10).
  it.skipIf(analyze.status !== 0)(`is rated no more exposed than 3.5 by systemd-analyze security${NO_ANALYZE}`, async () => {
    const { stdout } = await exec('systemd-analyze', ['security', '--offline=yes', '--no-pager', unit]);
    const level = Number(/Overall exposure level for hearth\.service: ([\d.]+)/.exec(stdout)?.[1]);
    expect(level).toBeGreaterThan(0);
    expect(level).toBeLessThanOrEqual(3.5);
  });
});

/** Runs the CLI to its end: its exit code and what it printed. */
function run(args: string[], options: { uid?: number; gid?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { ...options, env: { PATH: process.env.PATH ?? '', HEARTH_LOG_LEVEL: 'info' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    // Not started at all (a node this user cannot run): said, not waited for.
    child.on('error', (err) => resolve({ code: null, stdout, stderr: `${stderr}${err.message}` }));
  });
}
