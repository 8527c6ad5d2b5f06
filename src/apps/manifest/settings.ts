/**
 * An app's settings as app.json declares them (its own and each widget's), in the one shape the
 * hub reads from here on: Homey's `title`/`value` spellings taken as `label`/`default`, what
 * Homey's tools only warn about let pass with a warning, and a setting of a kind hearth cannot
 * read left out with a warning rather than refusing the app. Also the localized text they share
 * with the manifest.
 */
import { z } from 'zod';
import { transient } from '../../core/transient.js';
import { describeIssues } from '../../core/zod-issues.js';

/** A setting's or a widget's id: 1-64 letters, digits, _ or -. */
export const LOCAL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A text per language; English is required so every hub can show something. A plain string is
 * taken as the English text, as Homey's validator takes it (apps written for one language do).
 */
export const Localized = transient(() =>
  z.preprocess((v) => (typeof v === 'string' ? { en: v } : v), z.object({ en: z.string().min(1, 'needs an English text') }).catchall(z.string())),
);
const Label = transient(() => z.union([z.string().min(1), Localized()]));

/**
 * Homey writes a setting's label as `title` (widgets) or `label` (older apps), its default as
 * `value`, and a dropdown option's label as `title` or `label`: one shape from here on.
 */
function homeySetting(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const s = { ...(input as Record<string, unknown>) };
  if (s.label === undefined && s.title !== undefined) s.label = s.title;
  if (s.default === undefined && s.value !== undefined) s.default = s.value;
  if (Array.isArray(s.values)) {
    s.values = s.values.map((v: unknown) =>
      typeof v === 'object' && v !== null && (v as { label?: unknown }).label === undefined ? { ...v, label: (v as { title?: unknown }).title } : v,
    );
  }
  return s;
}

const settingBase = transient(() => ({
  id: z.string().regex(LOCAL_ID, 'must be 1-64 letters, digits, _ or -'),
  label: Label(),
  hint: Label().optional(),
}));
/** A line or a box of text: the same fields either way. */
const textSetting = <T extends 'text' | 'textarea'>(type: T) =>
  z.object({
    ...settingBase(),
    type: z.literal(type),
    default: z.string().nullable().optional(),
    placeholder: Label().optional(),
    pattern: z.string().max(500).optional(),
  });

export const SettingDefinition = transient(() =>
  z.preprocess(
    homeySetting,
    z.discriminatedUnion(
      'type',
      [
        textSetting('text'),
        textSetting('textarea'),
        z.object({
          ...settingBase(),
          type: z.literal('number'),
          default: z.number().nullable().optional(),
          min: z.number().optional(),
          max: z.number().optional(),
          step: z.number().positive().optional(),
          units: Label().optional(),
        }),
        z.object({ ...settingBase(), type: z.literal('checkbox'), default: z.boolean().nullable().optional() }),
        z.object({
          ...settingBase(),
          type: z.literal('dropdown'),
          default: z.string().nullable().optional(),
          values: z.array(z.object({ id: z.string().max(256), label: Label() })).min(1),
        }),
        z.object({ ...settingBase(), type: z.literal('autocomplete'), default: z.unknown().optional() }),
      ],
      { error: 'type must be one of text, textarea, number, checkbox, dropdown, autocomplete' },
    ),
  ),
);
export type SettingDefinition = z.infer<ReturnType<typeof SettingDefinition>>;

// A dropdown default that is not among its values is a warning (settingWarnings), as for Homey.
export const Settings = transient(() =>
  z.array(SettingDefinition()).superRefine((defs, ctx) => {
    const seen = new Set<string>();
    for (const [i, d] of defs.entries()) {
      if (seen.has(d.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `setting id '${d.id}' is used twice` });
      seen.add(d.id);
    }
  }),
);

/**
 * What Homey's tools let pass with a warning in a list of settings: a dropdown whose default is
 * not among its values (the default is dropped: the setting starts unset), an option with an
 * empty id. One sentence each, naming the field; `where` says whose settings they are.
 */
export function settingWarnings(settings: SettingDefinition[], where: string): string[] {
  const out: string[] = [];
  for (const [i, d] of settings.entries()) {
    if (d.type !== 'dropdown') continue;
    if (typeof d.default === 'string' && !d.values.some((v) => v.id === d.default)) {
      out.push(`${where}[${i}] (${d.id}): the default '${d.default}' is not one of its values, so the setting starts unset`);
      d.default = null;
    }
    if (d.values.some((v) => v.id === '')) out.push(`${where}[${i}] (${d.id}): an option has an empty id`);
  }
  return out;
}

/**
 * app.json with each setting hearth cannot read left out (an app's `settings` and each widget's),
 * and a warning naming it: a setting of a kind hearth does not know (`password`, say) is no
 * reason to refuse an app, whose own page may well handle it.
 */
export function withReadableSettings(raw: Record<string, unknown>): { cleaned: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const keep = (list: unknown, where: string): unknown => {
    if (!Array.isArray(list)) return list;
    return list.filter((entry, i) => {
      const parsed = SettingDefinition().safeParse(entry);
      if (parsed.success) return true;
      const id = typeof (entry as { id?: unknown } | null)?.id === 'string' ? ` (${(entry as { id: string }).id})` : '';
      warnings.push(`${where}[${i}]${id}: ${describeIssues(parsed.error, '', 1).replace(/^: /, '')}; left out`);
      return false;
    });
  };
  const cleaned: Record<string, unknown> = { ...raw, settings: keep(raw.settings, 'settings') };
  if (raw.settings === undefined) delete cleaned.settings;
  if (typeof raw.widgets === 'object' && raw.widgets !== null && !Array.isArray(raw.widgets)) {
    cleaned.widgets = Object.fromEntries(
      Object.entries(raw.widgets as Record<string, unknown>).map(([id, w]) =>
        typeof w === 'object' && w !== null && !Array.isArray(w) && (w as { settings?: unknown }).settings !== undefined
          ? [id, { ...(w as Record<string, unknown>), settings: keep((w as { settings?: unknown }).settings, `widgets.${id}.settings`) }]
          : [id, w],
      ),
    );
  }
  return { cleaned, warnings };
}
