// Speech figures: time from a `say` request (synthesize: true, over HTTP) to the WAV in hand for
// a fresh 10-word sentence, next to running espeak-ng directly (spawn, text on stdin, WAV on
// stdout) in the same run; and the same request for a phrase already in the cache.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, OWNER, startListening } from './lib.mjs';

const ROUNDS = 25;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

/** A 10-word sentence no earlier round used, so the cache cannot answer it. */
function sentence(round, side) {
  const a = WORDS[round % 10];
  const b = WORDS[Math.floor(round / 10) % 10];
  return `The ${side} washing machine in room ${a} ${b} has now finished`;
}

function espeakDirect(text) {
  return new Promise((resolve, reject) => {
    const child = spawn('espeak-ng', ['-v', 'gmw/en', '-s', '175', '--stdin', '--stdout']);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`espeak-ng exited ${code}`))));
    child.stdin.end(text);
  });
}

async function sayRequest(url, text) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, synthesize: true }),
  });
  const wav = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200 || wav.subarray(0, 4).toString('latin1') !== 'RIFF') {
    throw new Error(`say answered ${res.status}: ${wav.toString('utf8').slice(0, 200)}`);
  }
  return wav;
}

const time = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

export default async function bench({ root, log }) {
  const tmp = await mkdtemp(join(tmpdir(), 'hearth-bench-speech-'));
  // Started here rather than with lib's startHub: its --log-level warn hides the 'listening' line.
  const hub = await startListening(
    [
      join(root, 'dist/cli.js'),
      'start',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      join(tmp, 'data'),
      '--apps-dir',
      join(tmp, 'apps'),
      '--speech-engine',
      'espeak-ng',
      '--audio-out',
      join(tmp, 'out'),
    ],
    { HEARTH_OWNER_TOKEN: OWNER, HEARTH_LOG_LEVEL: 'info' },
  );
  try {
    const url = `http://127.0.0.1:${hub.port}/api/manager/speech-output/say`;
    log('warming up');
    for (let i = 0; i < 3; i++) {
      await espeakDirect(sentence(100 + i, 'warm'));
      await sayRequest(url, sentence(100 + i, 'warm'));
    }
    const direct = [];
    const viaHub = [];
    // Alternate so drift in the machine's load hits both sides alike.
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(await time(() => espeakDirect(sentence(round, 'bare'))));
      viaHub.push(await time(() => sayRequest(url, sentence(round, 'hub'))));
    }
    const cachedPhrase = 'The front door is open and nobody is home right now';
    await sayRequest(url, cachedPhrase);
    const cached = [];
    for (let round = 0; round < ROUNDS; round++) cached.push(await time(() => sayRequest(url, cachedPhrase)));

    const bare = median(direct);
    const hubMs = median(viaHub);
    const hit = median(cached);
    log(`espeak-ng direct ${bare.toFixed(1)} ms, say->WAV ${hubMs.toFixed(1)} ms, cached ${hit.toFixed(2)} ms (medians of ${ROUNDS})`);
    return [
      {
        name: 'say (synthesize) request to WAV, 10 words',
        value: hubMs,
        unit: 'ms',
        baseline: 'espeak-ng run directly',
        baselineValue: bare,
        ratio: hubMs / bare,
        target: '<= 1.5',
      },
      { name: 'say (synthesize) request to WAV, cached phrase', value: hit, unit: 'ms', target: '<= 5 ms' },
    ];
  } finally {
    await hub.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}
