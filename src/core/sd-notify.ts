/**
 * Tells systemd how the hub is doing (sd_notify): READY=1 once it listens, WATCHDOG=1 from its
 * event loop at half the unit's WatchdogSec=, STOPPING=1 on the way out. A hub whose event loop
 * froze sends no keep-alive and systemd restarts it. Node has no Unix datagram sockets, so the
 * messages go through `systemd-notify` (which waits until systemd has read them, so the unit
 * needs NotifyAccess=all). Outside systemd (no NOTIFY_SOCKET) nothing is sent.
 */
import { spawn } from 'node:child_process';
import type { Logger } from 'pino';

export class SystemdNotifier {
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly enabled: boolean;

  constructor(
    private readonly log: Logger,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.enabled = Boolean(env.NOTIFY_SOCKET);
  }

  private send(...assignments: string[]): void {
    if (!this.enabled) return;
    const child = spawn('systemd-notify', assignments, { stdio: 'ignore', env: { NOTIFY_SOCKET: this.env.NOTIFY_SOCKET, PATH: this.env.PATH } });
    child.on('error', (err) => this.log.warn({ err }, 'systemd-notify failed; is systemd installed?'));
  }

  /** The hub is up: READY=1, and keep-alives from now on when the unit has a watchdog. */
  ready(): void {
    this.send('--ready', `MAINPID=${process.pid}`);
    const usec = Number(this.env.WATCHDOG_USEC);
    if (!this.enabled || !Number.isFinite(usec) || usec <= 0) return;
    // Sent from a timer on the event loop: a loop that is stuck sends nothing.
    this.timer = setInterval(() => this.send('WATCHDOG=1'), Math.max(1000, usec / 1000 / 2));
    this.timer.unref();
    this.log.info({ everyMs: Math.max(1000, usec / 1000 / 2) }, 'sending systemd watchdog keep-alives');
  }

  stopping(): void {
    clearInterval(this.timer);
    this.send('STOPPING=1');
  }
}
