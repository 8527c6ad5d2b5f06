/**
 * How a section of the data file is opened: taken as it is when this build wrote and vouched for
 * it (store-trust.ts, store-shape.ts), else parsed with its schema, a record the schema refuses
 * set aside (kept in a file first: set-aside.ts) so the section opens with the others. And the
 * check every write makes before it is committed.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { invalid } from './errors.js';
import { takenAsIs } from './schema-shortcut.js';
import { keepSetAside, parseSettingAside, type RecordPaths, type SetAside } from './set-aside.js';
import { StoreSectionError } from './store-files.js';
import { applyShape, NO_SHAPE, shapeOf } from './store-shape.js';
import { describeIssues } from './zod-issues.js';

/** A section's schema, and its value when the data file does not hold it. */
export interface SectionSpec {
  readonly schema: z.ZodType;
  readonly initial: () => unknown;
}

/** What opening the sections found, for the hub to tell (the store's fields of the same names). */
export interface OpenFindings {
  readonly setAside: SetAside[];
  readonly trustedAtOpen: string[];
  readonly mistrusted: string[];
}

export class SectionOpener {
  constructor(
    /** The data folder, where set-aside records are kept. */
    private readonly dir: string,
    /** The data file, named in a refusal. */
    private readonly file: string,
    /** Sections the data file holds as this build wrote and vouched for them. */
    private readonly trusted: ReadonlySet<string>,
    /** Parse trusted sections all the same, and note a difference (the tests' hubs). */
    private readonly verify: boolean,
    private readonly found: OpenFindings,
  ) {}

  /**
   * What `raw` (the data file's section `name`) opens as, with the records its schema refuses set
   * aside: kept in a file first, then the section written without them. Throws when what is
   * wrong is not a record.
   */
  open(name: string, spec: SectionSpec, raw: unknown, records: RecordPaths): unknown {
    const shape = raw !== undefined && this.trusted.has(name) ? shapeOf(spec.schema) : NO_SHAPE;
    if (shape !== NO_SHAPE) {
      // As this build wrote it: what its parse would give back, made without checking again.
      applyShape(raw, shape);
      this.found.trustedAtOpen.push(name);
      if (!this.verify) return raw;
      const checked = this.checkedOpen(name, spec, raw, records);
      if (isDeepStrictEqual(raw, checked)) return raw;
      this.found.mistrusted.push(name);
      return checked;
    }
    return this.checkedOpen(name, spec, raw, records);
  }

  private checkedOpen(name: string, spec: SectionSpec, raw: unknown, records: RecordPaths): unknown {
    if (raw === undefined || records.length === 0) return this.load(name, spec, raw);
    const parsed = parseSettingAside(spec.schema, raw, records);
    if (!parsed) return this.load(name, spec, raw);
    if (parsed.aside.length > 0) {
      const file = keepSetAside(this.dir, name, parsed.aside);
      this.found.setAside.push({ section: name, file, records: parsed.aside });
    }
    return parsed.value;
  }

  /**
   * A section's value, or its initial value when absent, parsed with its schema either way: the
   * schema is what makes caller-keyed records null-prototype (core/null-prototype.ts).
   */
  private load(name: string, spec: SectionSpec, raw: unknown): unknown {
    const parsed = spec.schema.safeParse(raw === undefined ? spec.initial() : raw);
    if (!parsed.success) {
      throw new StoreSectionError(`section '${name}' of ${this.file} does not match its schema: ${describeIssues(parsed.error, '', Infinity)}`);
    }
    return parsed.data;
  }
}

/** `value` as it will be stored in `what`, or a 400 naming what does not fit (nothing is changed). */
export function checkedWrite(what: string, schema: z.ZodType, value: unknown): unknown {
  if (takenAsIs(schema, value)) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(`the change was not made: what '${what}' would hold does not fit: ${describeIssues(parsed.error, '', 3)}`);
  return parsed.data;
}
