/**
 * A speech engine that crashes on a text is a 502 with a sentence, never a 500; the text that
 * crashed it is in the hub's log (the token never is), and the engine works for the next text.
 * festival's text2wave dies with SIGSEGV on 300 cent signs (U+00A2) on Debian 12.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, type RunningHub, startHub } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { tempDir } from './tools.js';

const API = '/api/manager/speech-output';
const CRASHER = '\u00a2'.repeat(300);

let hub: RunningHub;

beforeAll(async () => {
  hub = await startHub({ args: ['--audio-out', await tempDir('crash-out'), '--speech-engine', 'say'] });
});
afterAll(async () => {
  await hub?.cleanup();
});

describe('an engine that crashes', () => {
  for (const synthesize of [false, true]) {
    it(`answers 502 with a sentence (synthesize: ${synthesize}), logs the text, and speaks the next one`, async () => {
      const res = await hub.call<{ error: string; error_description: string; statusCode: number }>('POST', `${API}/say`, {
        body: { text: CRASHER, synthesize },
      });
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('bad_gateway');
      expect(res.body.error_description).toMatch(/speech engine 'say' failed on this text \(text2wave was killed by SIGSEGV/);
      // The log line travels through the hub's stdout: it may arrive just after the answer.
      const logged = async (): Promise<boolean> =>
        hub.output.some((l) => l.includes('speech engine failed on a text') && (JSON.parse(l) as { text?: string }).text === CRASHER);
      await poll(logged, (seen) => seen, 'the crash logged with its text');
      expect(hub.output.some((l) => l.includes(OWNER))).toBe(false);

      const next = await hub.call('POST', `${API}/say`, { body: { text: 'still here', synthesize } });
      expect(next.status).toBe(200);
    });
  }
});
