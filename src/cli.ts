#!/usr/bin/env node
/**
 * The `hearth` command: start the daemon, manage tokens and make one-time sign-in links (thin
 * clients of the token API), and the offline tools (backup, restore, app pack).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONFIG_FLAGS, type Config, ConfigError, loadConfig, OWNER_TOKEN_FILE } from './config.js';
import { nearest } from './core/nearest.js';
import type { TokenView } from './managers/tokens/views.js';
import { VERSION } from './version.js';

const USAGE = `hearth ${VERSION}: home-automation hub

Usage:
  hearth start [--host H] [--port P] [--data-dir D] [--apps-dir A] [--store S] [--audio-out O]
               [--log-level L] [--speech-engine E] [--backup-dir B] [--backup-schedule CRON]
  hearth token create --name NAME --scope SCOPE [--scope SCOPE ...]
  hearth token list [--json]
  hearth token revoke ID
  hearth login [--scope SCOPE ...] [--minutes N]   (a one-time link that signs a browser in, 10 minutes
                                              at most; default: every scope but the owner's)
  hearth app pack FOLDER --store DIR [--channel stable|beta] [--sign-key PRIVATE.pem]
                                              (adds an app to a local catalogue, signed with the key)
  hearth app keygen DIR                       (an ed25519 key pair to sign a catalogue; pin the .pub.pem
                                              with hearth start --store-key)
  hearth app log ID [--follow]                (the app's output; --follow streams it as it is written)
  hearth backup [--data-dir D] [--apps-dir A] [--backup-dir B] [--backup-keep N]
  hearth restore ARCHIVE [--data-dir D] [--apps-dir A]      (with the hub stopped)
  hearth version

Every flag also reads from HEARTH_<FLAG> (e.g. HEARTH_PORT); flags win.
Token commands talk to the running hub at --url (default http://127.0.0.1:<port>) with the token
in HEARTH_TOKEN, or else the owner token in <data-dir>/owner-token.`;

type Flags = Record<string, string | undefined>;

function parse(args: string[], extra: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {}) {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = { ...extra };
  for (const flag of CONFIG_FLAGS()) options[flag] = { type: 'string' };
  options.url = { type: 'string' };
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    // Node's text ("To specify a positional argument starting with a '-' ...") helps no one who
    // mistyped a flag: the flag, the nearest known one, and the usage.
    const code = (err as NodeJS.ErrnoException).code;
    const flag = /'(-[^']*)'/.exec((err as Error).message)?.[1];
    if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || !flag) throw err;
    const near = nearest(
      flag,
      Object.keys(options).map((o) => `--${o}`),
    );
    throw new Error(`unknown flag '${flag}'${near ? `: did you mean ${near}?` : ''}\n\n${USAGE}`);
  }
}

function configFrom(values: Record<string, unknown>): Config {
  const flags: Flags = {};
  for (const flag of CONFIG_FLAGS()) if (typeof values[flag] === 'string') flags[flag] = values[flag];
  return loadConfig(flags, process.env);
}

/** A call to the running hub's `manager` (the tokens manager unless said). */
async function api(config: Config, url: string | undefined, method: string, path: string, body?: unknown, manager = 'tokens'): Promise<unknown> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = url ?? `http://${host}:${config.port}`;
  const tokenFile = join(config.dataDir, OWNER_TOKEN_FILE);
  const token =
    process.env.HEARTH_TOKEN ??
    (await readFile(tokenFile, 'utf8').then(
      (t) => t.trim(),
      (err: NodeJS.ErrnoException) => {
        throw new Error(
          `no token to call the hub with: ${tokenFile} cannot be read (${err.code}). Set HEARTH_TOKEN, pass the hub's --data-dir, or on a device run it as root (sudo hearth ...)`,
        );
      },
    ));
  let res: Response;
  try {
    res = await fetch(`${base}/api/manager/${manager}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? (err as Error).message;
    throw new Error(`could not reach the hub at ${base} (${code}); is it running? Point elsewhere with --url, or --port / HEARTH_PORT`);
  }
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const description = (parsed as { error_description?: string } | null)?.error_description ?? res.statusText;
    throw new Error(`${res.status}: ${description}`);
  }
  return parsed;
}

/**
 * The scopes given with --scope, checked here so a mistake is said in the CLI's terms (the
 * option and the list to choose from), not in the API's (`body field 'scopes.0' is invalid`).
 */
async function checkedScopes(given: string[] | undefined): Promise<string[]> {
  const { SCOPES } = await import('./core/scopes.js');
  const choices = `${SCOPES.join(', ')}, or * for every scope`;
  if (!given || given.length === 0) throw new Error(`say what the token may do with --scope (one or more): ${choices}`);
  const unknown = given.find((s) => s !== '*' && !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) throw new Error(`--scope ${unknown} is not a scope; the scopes are: ${choices}`);
  return given;
}

type TokenRow = Pick<TokenView, 'id' | 'name' | 'scopes' | 'createdAt' | 'owner' | 'session'>;

/** The tokens as a person reads them: one per line, aligned, newest last (`--json` for scripts). */
function tokenTable(tokens: Record<string, TokenRow>): string {
  const rows = Object.values(tokens)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((t) => [
      t.id,
      t.name,
      t.owner ? 'owner' : t.session ? 'session' : 'token',
      t.createdAt.slice(0, 16).replace('T', ' '),
      t.owner ? 'everything' : t.scopes.join(', '),
    ]);
  const head = ['ID', 'NAME', 'KIND', 'CREATED (UTC)', 'MAY'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

async function token(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { name: { type: 'string' }, scope: { type: 'string', multiple: true }, json: { type: 'boolean' } });
  const config = configFrom(values);
  const url = values.url as string | undefined;
  const [sub, id] = positionals;
  switch (sub) {
    case 'create': {
      if (typeof values.name !== 'string' || values.name.trim() === '')
        throw new Error('give the token a --name: what it is for, such as --name "kitchen tablet"');
      const scopes = await checkedScopes(values.scope as string[] | undefined);
      const created = await api(config, url, 'POST', '/token', { name: values.name, scopes });
      console.log(JSON.stringify(created, null, 2));
      return;
    }
    case 'list': {
      const tokens = (await api(config, url, 'GET', '/token')) as Record<string, TokenRow>;
      console.log(values.json === true ? JSON.stringify(tokens, null, 2) : tokenTable(tokens));
      return;
    }
    case 'revoke':
      if (!id) throw new Error('usage: hearth token revoke ID');
      await api(config, url, 'DELETE', `/token/${encodeURIComponent(id)}`);
      console.log(`revoked ${id}`);
      return;
    default:
      throw new Error(`unknown token command '${sub ?? ''}'\n\n${USAGE}`);
  }
}

/** How often `hearth app log --follow` asks the hub for what the app wrote since. */
const FOLLOW_MS = 1000;

/**
 * An app's output as `homey app run` streams it: what the hub keeps of stdout (to stdout) and
 * stderr (to stderr), then, with --follow, each new line as the app writes it, until Ctrl-C.
 */
async function appLog(config: Config, url: string | undefined, id: string, follow: boolean): Promise<void> {
  type Part = { text: string; next: number; skipped: number };
  let cursors = { stdout: 0, stderr: 0 };
  for (;;) {
    const log = (await api(config, url, 'GET', `/app/${encodeURIComponent(id)}/log?stdout=${cursors.stdout}&stderr=${cursors.stderr}`, undefined, 'apps')) as {
      stdout: Part;
      stderr: Part;
    };
    for (const [name, out] of [
      ['stdout', process.stdout],
      ['stderr', process.stderr],
    ] as const) {
      const part = log[name];
      if (part.skipped > 0) out.write(`[hearth: ${part.skipped} bytes of ${name} went by faster than they were read]\n`);
      out.write(part.text);
    }
    cursors = { stdout: log.stdout.next, stderr: log.stderr.next };
    if (!follow) return;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
  }
}

async function login(args: string[]): Promise<void> {
  const { values } = parse(args, { scope: { type: 'string', multiple: true }, minutes: { type: 'string' } });
  const config = configFrom(values);
  const url = values.url as string | undefined;
  const { SCOPES } = await import('./core/scopes.js');
  const scopes = values.scope === undefined ? [...SCOPES] : await checkedScopes(values.scope as string[]);
  const minutes = values.minutes === undefined ? 10 : Number(values.minutes);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 10)
    throw new Error(`--minutes must be a whole number from 1 to 10, not '${String(values.minutes)}'`);
  const made = (await api(config, url, 'POST', '/login', { scopes, ttlSeconds: minutes * 60 })) as { code: string; expiresAt: string; scopes: string[] };
  const { linkBase } = await import('./login-link.js');
  // Where the hub says it is reached (the address it listens on): this CLI's --host is not the
  // hub's, and a hub on 127.0.0.1 alone is not reached at the LAN address.
  const info = url ? null : ((await api(config, url, 'GET', '/', undefined, 'system').catch(() => null)) as { address?: unknown } | null);
  const address = typeof info?.address === 'string' && info.address !== '' ? info.address : null;
  const link = `${address ? `http://${address}` : linkBase(config, url)}/#login=${made.code}`;
  console.log(link);
  if (address && /^(127\.|\[::1\]|localhost)/.test(address)) {
    console.error(
      `The hub listens on ${address.replace(/:\d+$/, '')} only: this link opens on this machine alone. To sign a phone in, start the hub with --host 0.0.0.0.`,
    );
  }
  // The same link as a QR code for a phone's camera, on stderr (stdout stays the link alone, for
  // scripts). Light modules are the blocks: a terminal draws them in its (light) text colour.
  const { renderUnicodeCompact } = await import('uqr');
  console.error(renderUnicodeCompact(link, { ecc: 'M', border: 2 }));
  console.error(`Open this link in a browser (or scan the code) before ${new Date(made.expiresAt).toLocaleTimeString()}; it works once.`);
  console.error(`The browser gets a session with: ${made.scopes.join(', ')}. Revoke it on the System page or with hearth token revoke.`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  // `hearth <command> --help` (or -h) anywhere: the usage, which covers every command.
  if (command !== undefined && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(USAGE);
    return;
  }
  switch (command) {
    // Each command loads only what it needs: the daemon's modules take a third of a second to
    // load here (seconds on a Pi), which `hearth token list` should not pay.
    case 'start': {
      const config = configFrom(parse(rest).values);
      const { runDaemon } = await import('./main.js');
      return runDaemon(config);
    }
    case 'token':
      return token(rest);
    case 'login':
      return login(rest);
    case 'backup': {
      const config = configFrom(parse(rest).values);
      const { runOfflineBackup } = await import('./managers/backup/offline.js');
      const r = await runOfflineBackup(config);
      console.log(
        JSON.stringify(
          { file: r.path, createdAt: r.createdAt, size: r.size, sha256: r.sha256, durationMs: r.durationMs, deleted: r.deleted, skipped: r.skipped },
          null,
          2,
        ),
      );
      return;
    }
    case 'restore': {
      const { values, positionals } = parse(rest);
      if (positionals.length !== 1) throw new Error('usage: hearth restore ARCHIVE [--data-dir D] [--apps-dir A]');
      const config = configFrom(values);
      const { runRestore } = await import('./managers/backup/offline.js');
      const r = await runRestore(positionals[0]!, config);
      console.log(
        JSON.stringify(
          { restored: r.manifest.createdAt, hubVersion: r.manifest.hubVersion, previousData: r.previousData, previousApps: r.previousApps, carried: r.carried },
          null,
          2,
        ),
      );
      return;
    }
    case 'app': {
      const { values, positionals } = parse(rest, { channel: { type: 'string' }, 'sign-key': { type: 'string' }, follow: { type: 'boolean', short: 'f' } });
      const [sub, folder] = positionals;
      if (sub === 'log' && folder) return appLog(configFrom(values), values.url as string | undefined, folder, values.follow === true);
      if (sub === 'keygen' && folder) {
        const { makeKeyPair } = await import('./apps/catalogue/key.js');
        console.log(JSON.stringify(await makeKeyPair(folder), null, 2));
        return;
      }
      if (sub !== 'pack' || !folder || typeof values.store !== 'string') {
        throw new Error(
          'usage: hearth app pack FOLDER --store DIR [--channel stable|beta] [--sign-key PRIVATE.pem] | hearth app keygen DIR | hearth app log ID [--follow]',
        );
      }
      const { packApp } = await import('./apps/catalogue/pack.js');
      const signKey = values['sign-key'] as string | undefined;
      const result = await packApp(folder, values.store, (values.channel as string | undefined) ?? 'stable', signKey ? { signKey } : {});
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    case 'version':
    case '--version':
      console.log(VERSION);
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      throw new Error(`unknown command '${command}'\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
  console.error(`hearth: ${message}`);
  process.exitCode = 2;
});
