/**
 * The hub's own logs, so a fresh install has data to show: resident memory, event-loop lag,
 * CPU use of the hub process and the system load, and the cpu/mem of each running app. Sampled every `intervalMs` (first sample at start).
 */
import { loadavg } from 'node:os';
import type { Logger } from 'pino';
import { LoopLag } from '../../core/loop-lag.js';
import { managerOwnerUri } from '../../core/owners.js';
import type { InsightsService } from './service.js';

/** The owner of the hub's logs. */
export const HUB_URI = managerOwnerUri('system');
/** The owner of the per-app usage logs. */
export const APPS_URI = managerOwnerUri('apps');

/** What the sampler needs from the apps runtime (AppRuntime.list() fits). */
export interface AppUsageSource {
  list(): Record<string, { readonly name: string; readonly state: string; readonly usage: { readonly cpu: number; readonly mem: number } }>;
}

export class HubLogs {
  private timer: NodeJS.Timeout | null = null;
  private readonly lag = new LoopLag();
  private lastCpu = process.cpuUsage();
  private lastAt = process.hrtime.bigint();

  constructor(
    private readonly insights: InsightsService,
    private readonly log: Logger,
    /** Where the per-app cpu (%) and memory (MB) logs come from. */
    private readonly apps: AppUsageSource,
    private readonly intervalMs = 10_000,
  ) {}

  start(): void {
    this.lag.start();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.lag.stop();
  }

  /** One sample of every hub log; a log deleted through the API comes back here. */
  sample(): void {
    try {
      const now = process.hrtime.bigint();
      const cpu = process.cpuUsage(this.lastCpu);
      const elapsedUs = Number(now - this.lastAt) / 1000;
      this.lastCpu = process.cpuUsage();
      this.lastAt = now;
      const lagMs = this.lag.takeP99();
      this.write(HUB_URI, 'rss', 'Hub memory (RSS)', 'MB', 1, process.memoryUsage.rss() / 1048576);
      this.write(HUB_URI, 'eventLoopLag', 'Hub event-loop lag (p99)', 'ms', 1, lagMs);
      this.write(HUB_URI, 'cpu', 'Hub CPU use', '%', 1, elapsedUs > 0 ? ((cpu.user + cpu.system) / elapsedUs) * 100 : 0);
      this.write(HUB_URI, 'load', 'System load (1 min)', undefined, 2, loadavg()[0] ?? 0);
      for (const [id, app] of Object.entries(this.apps.list())) {
        if (app.state !== 'running') continue;
        // Titled by the app's name, as the page names apps; the log id keeps the app id.
        this.write(APPS_URI, `${id}.cpu`, `${app.name} CPU use`, '%', 1, app.usage.cpu);
        this.write(APPS_URI, `${id}.mem`, `${app.name} memory`, 'MB', 1, app.usage.mem / 1048576);
      }
    } catch (err) {
      this.log.warn({ err }, 'sampling the hub logs failed');
    }
  }

  private write(uri: string, id: string, title: string, units: string | undefined, decimals: number, value: number): void {
    const key = `${uri}:${id}`;
    const known = this.insights.getLogsOf(uri).find((l) => l.ownerId === id);
    // Made, or retitled (an app renamed, or a log of an older hearth titled by the app id).
    if (known?.title !== title) this.insights.createLog(uri, id, { title, decimals, ...(units ? { units } : {}) });
    this.insights.createEntry(key, Math.round(value * 1000) / 1000);
  }
}
