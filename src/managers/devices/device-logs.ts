/**
 * Insights of devices: every capability whose facts say so (Homey's `insights`, unless the
 * device's options `preventInsights`) gets a log owned by `homey:device:<id>` with the
 * capability's id, made on its first value and fed each one after; readable and charted as any
 * other log. A deleted device takes its logs with it.
 */
import type { Logger } from 'pino';
import { deviceOwnerUri } from '../../core/owners.js';
import type { Capability } from '../../home/capability.js';
import type { InsightsService } from '../insights/service.js';

export class DeviceLogs {
  /** Logs made (or found) in this run: `<deviceId>:<capabilityId>`. */
  private readonly made = new Set<string>();

  constructor(
    private readonly insights: InsightsService,
    private readonly log: Logger,
  ) {}

  record(deviceId: string, capabilityId: string, facts: Capability, value: unknown): void {
    if (!facts.insights || value === null) return;
    const type = facts.type === 'boolean' ? 'boolean' : facts.type === 'number' ? 'number' : null;
    if (type === null || typeof value !== type) return;
    const owner = deviceOwnerUri(deviceId);
    const key = `${owner}:${capabilityId}`;
    try {
      if (!this.made.has(key)) {
        this.insights.createLog(owner, capabilityId, {
          title: facts.title,
          type,
          ...(facts.units ? { units: facts.units } : {}),
          ...(facts.decimals !== null ? { decimals: facts.decimals } : {}),
        });
        this.made.add(key);
      }
      this.insights.createEntry(key, value as number | boolean);
    } catch (err) {
      this.log.warn({ err, device: deviceId, capability: capabilityId }, 'could not log a capability value in insights');
    }
  }

  forget(deviceId: string): void {
    const owner = deviceOwnerUri(deviceId);
    for (const log of this.insights.getLogsOf(owner)) {
      try {
        this.insights.deleteLog(log.id);
      } catch (err) {
        this.log.warn({ err, device: deviceId }, 'could not delete the insights log of a deleted device');
      }
      this.made.delete(log.id);
    }
  }
}
