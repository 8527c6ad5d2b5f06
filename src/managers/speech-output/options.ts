/**
 * The two speech options: `speed`, a multiplier of the engine's normal
 * rate ("0.5".."2.0" or slow|normal|fast), and `voice`, an installed voice id. Both need SYSTEM.
 */
import { z } from 'zod';
import { defineOption } from '../../core/contract.js';

export const NAMED_SPEEDS = { slow: 0.75, normal: 1, fast: 1.5 } as const;
type NamedSpeed = keyof typeof NAMED_SPEEDS;

const isNamed = (v: string): v is NamedSpeed => Object.hasOwn(NAMED_SPEEDS, v);

export const SpeedValue = z.string().refine((v) => isNamed(v) || (/^\d(\.\d{1,2})?$/.test(v) && Number(v) >= 0.5 && Number(v) <= 2), {
  message: 'speed must be slow, normal, fast or a number from "0.5" to "2.0" (a multiplier of the normal rate)',
});

/** The multiplier a stored speed value stands for ('fast' -> 1.5, '0.8' -> 0.8). */
export function speedMultiplier(value: unknown): number {
  if (typeof value !== 'string') return 1;
  if (isNamed(value)) return NAMED_SPEEDS[value];
  const n = Number(value);
  return Number.isFinite(n) && n >= 0.5 && n <= 2 ? n : 1;
}

const scopes = { get: 'SYSTEM', set: 'SYSTEM', unset: 'SYSTEM' } as const;

/**
 * The option declarations. Whether a voice can be the voice (installed, with an engine) depends
 * on the hub: the manager adds that check when it registers them.
 */
export const SPEECH_OPTIONS = [
  defineOption({ name: 'speed', schema: SpeedValue, default: 'normal', scopes, summary: 'the speaking speed' }),
  defineOption({ name: 'voice', schema: z.string(), default: null, scopes, summary: 'the voice used to speak' }),
] as const;
