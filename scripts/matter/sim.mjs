// The simulated Matter device (device.mjs) and matter.js's bare controller (controller.mjs) as
// processes in a namespace of a LAN (lan.mjs): what they print (one JSON object a line), their
// stdin, stopping and starting again on the same storage. For the tests, the bench and the
// screenshots.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const here = import.meta.dirname;

export class MatterProcess {
  /** Every JSON line it printed, in order. */
  lines = [];
  #child = null;
  #waiters = [];

  /** `ready`: the line that says it is up (start() resolves with it). */
  constructor(lan, ns, script, config, ready) {
    this.lan = lan;
    this.ns = ns;
    this.script = script;
    this.config = config;
    this.ready = ready;
  }

  /** Starts it (again, on the same storage); resolves with its ready line. */
  async start() {
    const [file, ...args] = this.lan.exec(this.ns, [process.execPath, join(here, this.script), JSON.stringify(this.config)]);
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    // matter.js's warnings (development vendor values) stay here; a process that dies says why.
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr = (stderr + d).slice(-4000);
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      this.lines.push(msg);
      for (const w of [...this.#waiters]) w(msg);
    });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${this.script} exited with ${code}: ${stderr}`)));
      this.next(this.ready).then(resolve, reject);
    });
  }

  /** The next line `ok` accepts. */
  next(ok) {
    return new Promise((resolve) => {
      const waiter = (msg) => {
        if (!ok(msg)) return;
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve(msg);
      };
      this.#waiters.push(waiter);
    });
  }

  send(line) {
    this.#child?.stdin.write(`${line}\n`);
  }

  /** Kills it at once (a device pulled from the wall). */
  async kill(signal = 'SIGKILL') {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
}

/** A simulated light + temperature sensor in the LAN's device namespace; `start()` resolves with its pairing codes. */
export function simDevice(lan, config) {
  return new MatterProcess(lan, lan.deviceNs, 'device.mjs', config, (m) => typeof m.manualPairingCode === 'string');
}

/** matter.js's bare controller in the hub's namespace, commissioning `code`; `start()` resolves once it is ready. */
export function bareController(lan, config) {
  return new MatterProcess(lan, lan.hubNs, 'controller.mjs', config, (m) => m.ready === true);
}
