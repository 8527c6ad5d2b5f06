#!/usr/bin/env node
// `npm run compat -- <snapshots-dir> [--only <id>,<id>]`: runs real open-source Homey apps on a
// hub, unchanged, and says which held. The apps are listed in scripts/compat/corpus.json (their
// repository and the commit they are pinned at; never their code: most are GPL or unlicensed, so
// they stay out of this repository). Each is taken from `<snapshots-dir>/<owner>+<name>` (a git
// repository, bare or not), cloned there from GitHub when missing, exported at its commit, and
// built as `homey app build` builds it: its dependencies installed (without install scripts: they
// would run outside any sandbox), TypeScript compiled with the app's own tsconfig into
// .homeybuild/ over a copy of the folder. Then all of them go into one hub's apps folder (a temp
// data dir, the built hub in dist/), and after they have had time to start (and to crash), each
// app's state is read through the Web API. The figures go to stdout as a Markdown table and to
// `<snapshots-dir>/compat-results.json`; docs/apps.md records them.
//
// The hub and its apps run in a network namespace of their own with only a loopback (`unshare
// --user --net`, the same process run again with `--run <work folder>` once the apps are built:
// building needs the npm registry, running must not reach anything), so nothing an app does
// leaves the machine; `--no-isolation` runs them on the host's network (where namespaces cannot
// be made), and the table says which. `--keep` keeps the built apps' folder (to look into one).
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { build, exportApp } from './build.mjs';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const OWNER = 'hth_compat-owner-token-0123456789abcdef0123456789abcdef';
/** How long apps get to start (and to crash), and how long after that they are read again. */
const SETTLE_MS = 30_000;
const AGAIN_MS = 10_000;

const args = process.argv.slice(2);
const snapshots = args.find((a) => !a.startsWith('--'));
if (!snapshots) {
  process.stderr.write('usage: npm run compat -- <snapshots-dir> [--only <id>,<id>]\n');
  process.exit(2);
}
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set(args[onlyAt + 1].split(',')) : null;
const runAt = args.indexOf('--run');
/** Set in the namespace: the work folder the builds went into. */
const runIn = runAt >= 0 ? args[runAt + 1] : null;
const isolate = !args.includes('--no-isolation');
const log = (msg) => process.stderr.write(`${msg}\n`);

const corpus = JSON.parse(await readFile(join(import.meta.dirname, 'corpus.json'), 'utf8')).apps.filter((a) => !only || only.has(a.id));

/** An app's app.json as the hub reads it: composed in memory (by the hub's own code) where it has none. */
async function manifestOf(appsDir, id) {
  const { loadAppFolder } = await import(join(root, 'dist/apps/manifest/compose.js'));
  const loaded = await loadAppFolder(join(appsDir, id));
  if (!loaded.ok) throw new Error(`the hub cannot read ${id}: ${loaded.message}`);
  return loaded.folder.manifest.raw;
}

/** Starts the built hub on `appsDir`; resolves with its URL and a stop function. */
function startHub(appsDir, dataDir) {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/cli.js'), 'start', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--apps-dir', appsDir],
    {
      env: { ...process.env, HEARTH_OWNER_TOKEN: OWNER, HEARTH_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolveHub, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const e = JSON.parse(line);
        if (e.msg === 'listening') {
          resolveHub({
            url: `http://127.0.0.1:${e.port}`,
            stop: () =>
              new Promise((done) => {
                child.once('exit', done);
                child.kill('SIGTERM');
              }),
          });
        }
      } catch {}
    });
    child.once('exit', (code) => reject(new Error(`the hub exited ${code} before listening`)));
  });
}

const call = async (hub, method, path, body, signal) => {
  const res = await fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${OWNER}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });
  return res.status === 204 ? null : res.json();
};

/** How long a driver gets to answer list_devices (a LAN scan, a cloud call that cannot be made here). */
const LIST_MS = 15_000;
/** A line an app logs when it calls what hearth's SDK does not have. */
const MISSING_SDK =
  /not_available|is not available on hearth|is not a function|Cannot read properties of undefined \(reading '(?:zigbee|zwave|ble|rf|arp|ledring|nfc|speechInput)/;

/**
 * A driver app's drivers as a person pairing them meets them: each declared driver listed by the
 * hub, a pair session opened for each with its first view, and, where that view lists devices,
 * list_devices answered (an empty list is an answer; an error is one too, said in its words).
 */
async function driversOf(hub, id, appsDir) {
  const manifest = await manifestOf(appsDir, id);
  const declared = (manifest.drivers ?? []).map((d) => d.id);
  const listed = Object.values(await call(hub, 'GET', '/api/manager/drivers/driver')).filter((d) => d.ownerId === id);
  const out = {
    declared: declared.length,
    listed: listed.length,
    sessions: 0,
    firstViews: 0,
    listAnswered: 0,
    listRefused: [],
    listFailed: [],
    needsRadio: [],
  };
  for (const d of listed) {
    const session = await call(hub, 'POST', '/api/manager/drivers/pairsession', { type: 'pair', driverId: d.id });
    // A driver for a radio hearth has not (BLE, Zigbee, Z-Wave, ...) cannot pair here: hardware, not compatibility.
    if (!session?.id && /radio, which hearth has not/.test(session?.error_description ?? '')) {
      out.needsRadio.push(d.id);
      continue;
    }
    if (!session?.id) {
      out.listFailed.push(`${d.id}: no pair session: ${session?.error_description ?? 'no answer'}`);
      continue;
    }
    out.sessions++;
    if (session.view) out.firstViews++;
    const first = d.pair?.[0];
    if (first?.template === 'list_devices' || (!first && (d.pair ?? []).length === 0)) {
      const answer = await call(
        hub,
        'POST',
        `/api/manager/drivers/pairsession/${session.id}/emit`,
        { event: 'list_devices' },
        AbortSignal.timeout(LIST_MS),
      ).catch((err) => ({ error_description: err.name === 'TimeoutError' ? `no answer in ${LIST_MS / 1000} s` : err.message }));
      if (Array.isArray(answer)) out.listAnswered++;
      // The app's own error ("first add a bridge") is an answer a person reads; no answer is not.
      else if (String(answer?.error_description ?? '').startsWith('the app failed')) out.listRefused.push(`${d.id}: ${answer.error_description}`);
      else out.listFailed.push(`${d.id}: ${answer?.error_description ?? 'no answer'}`);
    }
    await call(hub, 'DELETE', `/api/manager/drivers/pairsession/${session.id}`).catch(() => undefined);
  }
  return out;
}

/**
 * An app's flow cards on the hub: how many it declares (its built app.json), how many the hub
 * lists, and each condition or action without arguments run once through the Web API (its run
 * listener answering, or why not). Cards with arguments need values only a person can choose.
 */
async function cardsOf(hub, id, appsDir) {
  const manifest = await manifestOf(appsDir, id);
  const declared = ['triggers', 'conditions', 'actions'].reduce((n, k) => n + (manifest.flow?.[k]?.length ?? 0), 0);
  const out = { declared, listed: 0, ran: [], failed: [] };
  for (const kind of ['trigger', 'condition', 'action']) {
    const cards = Object.values(await call(hub, 'GET', `/api/manager/flow/flowcard${kind}`)).filter((c) => c.ownerId === id);
    out.listed += cards.length;
    if (kind === 'trigger') continue;
    for (const c of cards.filter((c) => c.args.length === 0)) {
      const answer = await call(hub, 'POST', `/api/manager/flow/flowcard${kind}/${encodeURIComponent(c.ownerUri)}/${encodeURIComponent(c.id)}/run`, {});
      if (answer && typeof answer === 'object' && 'error' in answer) out.failed.push(`${c.id}: ${answer.error_description}`);
      else out.ran.push(c.id);
    }
  }
  return out;
}

/** Builds every app of the corpus into `<work>/apps`; answers each one's result so far. */
async function buildAll(work) {
  const appsDir = join(work, 'apps');
  await mkdir(appsDir);
  const results = [];
  for (const app of corpus) {
    log(`${app.id} (${app.repo}@${app.commit.slice(0, 10)})`);
    const result = { id: app.id, repo: app.repo, commit: app.commit, language: app.language, drivers: app.drivers, note: app.note, build: 'ok' };
    results.push(result);
    try {
      const exported = await mkdtemp(join(work, 'src-'));
      const src = await exportApp(snapshots, app, exported, log);
      const envKeys = await build(app, src, join(appsDir, app.id));
      if (envKeys.length > 0) result.envPlaceholders = envKeys;
    } catch (err) {
      result.build = String(err.message).split('\n')[0].slice(0, 300);
      log(`  build failed: ${result.build}`);
    }
  }
  return results;
}

/** Runs the built apps on a hub and reads how each one is doing into `results`. */
async function runAll(work, results) {
  const appsDir = join(work, 'apps');
  const hub = await startHub(appsDir, join(work, 'data'));
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    await call(hub, 'GET', '/api/manager/apps/app');
    await new Promise((r) => setTimeout(r, AGAIN_MS));
    const apps = await call(hub, 'GET', '/api/manager/apps/app');
    for (const result of results) {
      const a = apps[result.id];
      if (!a) {
        result.outcome = result.build === 'ok' ? 'not listed' : 'build failed';
        continue;
      }
      const held = a.state === 'running' && a.ready && !a.crashed;
      result.outcome = held ? 'held' : !a.compatible ? 'incompatible' : 'failed';
      result.reason = held ? null : (a.incompatibleReason ?? a.crashedMessage ?? `state ${a.state}`);
      result.warnings = a.warnings;
      result.unsupported = a.unsupported;
      if (!held && a.compatible) {
        const std = await call(hub, 'POST', `/api/manager/apps/app/${result.id}/crashlog`, {});
        result.log = `${std.stdout ?? ''}${std.stderr ?? ''}`.split('\n').filter(Boolean).slice(-6);
      }
      if (held) result.cards = await cardsOf(hub, result.id, appsDir);
      if (held && result.drivers) result.driverChecks = await driversOf(hub, result.id, appsDir);
    }
    // Still running after all that, with no call of what hearth's SDK lacks in its log.
    const after = await call(hub, 'GET', '/api/manager/apps/app');
    for (const result of results.filter((r) => r.outcome === 'held')) {
      const a = after[result.id];
      const std = await call(hub, 'POST', `/api/manager/apps/app/${result.id}/crashlog`, {});
      const missing = `${std.stdout ?? ''}${std.stderr ?? ''}`.split('\n').filter((l) => MISSING_SDK.test(l));
      result.missingSdk = missing.slice(-3);
      if (!(a?.state === 'running' && !a.crashed)) {
        result.outcome = 'failed';
        result.reason = `stopped while it was tried: ${a?.crashedMessage ?? a?.state ?? 'gone'}`;
      } else if (missing.length > 0) {
        result.outcome = 'failed';
        result.reason = `called what hearth's SDK does not have: ${missing.at(-1).slice(0, 200)}`;
      } else if (result.driverChecks && (result.driverChecks.listed < result.driverChecks.declared || result.driverChecks.listFailed.length > 0)) {
        const d = result.driverChecks;
        result.outcome = 'failed';
        result.reason = d.listFailed.length > 0 ? `pairing: ${d.listFailed[0].slice(0, 200)}` : `${d.listed} of ${d.declared} drivers listed`;
      }
    }
  } finally {
    await hub.stop();
  }
}

if (runIn) {
  // In the namespace: the loopback up, then the run; the results go back through the work folder.
  await run('ip', ['link', 'set', 'lo', 'up']);
  const results = JSON.parse(await readFile(join(runIn, 'results.json'), 'utf8'));
  await runAll(runIn, results);
  await writeFile(join(runIn, 'results.json'), JSON.stringify(results));
  process.exit(0);
}

const work = await mkdtemp(join(tmpdir(), 'hearth-compat-'));
const results = await buildAll(work);
let isolated = false;
if (isolate) {
  await writeFile(join(work, 'results.json'), JSON.stringify(results));
  const code = await new Promise((done) => {
    const child = spawn(
      'unshare',
      [
        '--user',
        '--map-current-user',
        '--net',
        '--',
        process.execPath,
        import.meta.filename,
        snapshots,
        '--run',
        work,
        ...(only ? ['--only', [...only].join(',')] : []),
      ],
      {
        stdio: 'inherit',
      },
    );
    child.once('error', () => done(-1));
    child.once('exit', (c) => done(c));
  });
  if (code !== 0) throw new Error(`the run in a network namespace failed (unshare exited ${code}); --no-isolation runs on the host's network`);
  results.splice(0, results.length, ...JSON.parse(await readFile(join(work, 'results.json'), 'utf8')));
  isolated = true;
} else {
  await runAll(work, results);
}

const count = (o) => results.filter((r) => r.outcome === o).length;
const driverless = results.filter((r) => !r.drivers);
console.log(`\n| app | repository@commit | kind | outcome | why |\n|---|---|---|---|---|`);
for (const r of results) {
  const why = (r.outcome === 'held' ? '' : (r.reason ?? r.build)).replace(/\|/g, '\\|').slice(0, 160);
  console.log(`| ${r.id} | ${r.repo}@${r.commit.slice(0, 10)} | ${r.language}${r.drivers ? ', drivers' : ''} | ${r.outcome} | ${why} |`);
}
const withCards = results.filter((r) => r.cards?.declared > 0);
console.log(`\n| app with flow cards | declared | listed | ran without arguments | failed |\n|---|---|---|---|---|`);
for (const r of withCards) console.log(`| ${r.id} | ${r.cards.declared} | ${r.cards.listed} | ${r.cards.ran.length} | ${r.cards.failed.length} |`);
const withDrivers = results.filter((r) => r.driverChecks);
console.log(
  `\n| driver app | drivers declared | listed | need a radio | pair sessions | first view | list_devices answered | answered with the app's error | not answered |\n|---|---|---|---|---|---|---|---|---|`,
);
for (const r of withDrivers) {
  const d = r.driverChecks;
  console.log(
    `| ${r.id} | ${d.declared} | ${d.listed} | ${d.needsRadio.length} | ${d.sessions} | ${d.firstViews} | ${d.listAnswered} | ${d.listRefused.length} | ${d.listFailed.length} |`,
  );
}
console.log(isolated ? '\nRun in a network namespace with only a loopback.' : '\nRun on the host network (--no-isolation).');
console.log(
  `\n${count('held')} of ${results.length} held; driverless: ${driverless.filter((r) => r.outcome === 'held').length} of ${driverless.length}; ` +
    `incompatible (drivers): ${count('incompatible')}; failed: ${count('failed')}; build failed: ${count('build failed')}`,
);
await writeFile(join(resolve(snapshots), 'compat-results.json'), `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
if (args.includes('--keep')) log(`kept the built apps in ${work}`);
else await rm(work, { recursive: true, force: true });
