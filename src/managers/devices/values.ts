/**
 * The last value of every device's capabilities: held in memory (what the API answers), and
 * written to the data file's `device-values` section at most once per FLUSH_MS, so a sensor
 * reporting every second costs one write every few seconds, not one per report. stop() writes
 * what is left; a power cut loses at most the last few seconds of values, which devices report
 * again.
 */
import type { Logger } from 'pino';
import { KiB, MiB } from '../../core/byte-bounds.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection, Store } from '../../core/store.js';
import { DeviceValues, type StoredValue, VALUES_SECTION } from './device-record.js';

const FLUSH_MS = 5_000;

/**
 * A device's values map copied, its values shared: a null-prototype map of the plain values, as
 * DeviceValues makes it, so the store keeps a flushed one as it is (its shortcut). Sharing is
 * safe: a value is never changed in place (set() puts a new one).
 */
const copyOf = (values: Readonly<Record<string, StoredValue>>): Record<string, StoredValue> => Object.assign(nullRecord<StoredValue>(), values);

export class CapabilityValues {
  private section!: RecordSection<Record<string, StoredValue>>;
  private readonly current = nullRecord<Record<string, StoredValue>>();
  /** Devices whose values changed since the last write (or were deleted: absent from `current`). */
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly flushMs = FLUSH_MS,
  ) {}

  open(): void {
    this.section = this.store.records(VALUES_SECTION, DeviceValues, {
      record: 64 * KiB,
      item: "a device's capability values",
      section: 8 * MiB,
      items: "devices' capability values",
    });
    for (const [id, values] of Object.entries(this.section.value)) this.current[id] = copyOf(values);
  }

  of(deviceId: string): Readonly<Record<string, StoredValue>> | undefined {
    return this.current[deviceId];
  }

  set(deviceId: string, capabilityId: string, value: StoredValue['value'], at = new Date().toISOString()): StoredValue {
    const stored = { value, lastUpdated: at };
    (this.current[deviceId] ??= nullRecord())[capabilityId] = stored;
    this.changed(deviceId);
    return stored;
  }

  /** Forgets a capability (removed from its device) or a whole device. */
  forget(deviceId: string, capabilityId?: string): void {
    if (capabilityId === undefined) delete this.current[deviceId];
    else if (this.current[deviceId]) delete this.current[deviceId][capabilityId];
    this.changed(deviceId);
  }

  private changed(deviceId: string): void {
    this.dirty.add(deviceId);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }

  /** Writes the changed devices' values now (the hub stops, a backup is taken). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty.size === 0) return this.writing;
    const ids = [...this.dirty];
    this.dirty.clear();
    this.writing = this.writing
      .then(() =>
        this.section.updateSome(ids, (d) => {
          for (const id of ids) {
            const values = this.current[id];
            if (values) d[id] = copyOf(values);
            else delete d[id];
          }
        }),
      )
      .catch((err: unknown) => {
        for (const id of ids) this.dirty.add(id);
        this.log.error({ err }, 'could not write the devices’ capability values; trying again');
        this.changed(ids[0]!);
      });
    return this.writing;
  }
}
