#!/usr/bin/env node
// `npm run bench`: runs every scripts/bench/*.bench.mjs against the built hub and prints each
// figure next to its bare baseline measured in the same run (the machine is shared and noisy,
// so only ratios mean anything). `npm run bench -- http apps` runs only those files.
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const only = process.argv.slice(2);
const files = (await readdir(here)).filter((f) => f.endsWith('.bench.mjs')).sort();
const log = (msg) => process.stderr.write(`  ${msg}\n`);

const fmt = (v) => (typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)) : String(v ?? ''));
let failed = 0;
for (const file of files) {
  const area = file.replace('.bench.mjs', '');
  if (only.length && !only.includes(area)) continue;
  process.stderr.write(`\n# ${area}\n`);
  const { default: bench } = await import(join(here, file));
  let rows;
  try {
    rows = await bench({ root, log });
  } catch (err) {
    failed++;
    console.log(`${area}: FAILED: ${err?.stack ?? err}`);
    continue;
  }
  console.log(`\n## ${area}`);
  console.log('| measurement | value | baseline | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) {
    const base = r.baseline ? `${fmt(r.baselineValue)} ${r.unit} (${r.baseline})` : '';
    console.log(`| ${r.name} | ${fmt(r.value)} ${r.unit} | ${base} | ${r.ratio !== undefined ? fmt(r.ratio) : ''} | ${r.target ?? ''} |`);
  }
}
process.exitCode = failed ? 1 : 0;
