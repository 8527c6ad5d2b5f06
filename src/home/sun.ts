/**
 * Sunrise and sunset of a day at a place, by the sunrise equation (the sun's mean anomaly, its
 * equation of centre, ecliptic longitude and declination; the sun's upper limb at the horizon
 * with refraction, -0.833°): within a minute or two of the almanac away from the poles, which is
 * what "at sunset" needs. No dependency: forty lines against a library's hundreds.
 */
const RAD = Math.PI / 180;
const J1970 = 2440587.5;
const J2000 = 2451545;
const DAY_MS = 86_400_000;
const sin = (deg: number) => Math.sin(deg * RAD);
const cos = (deg: number) => Math.cos(deg * RAD);

export interface SunTimes {
  /** Instants (ms since the epoch); null on a day the sun does not rise (polar night) or set (midnight sun). */
  readonly sunrise: number | null;
  readonly sunset: number | null;
  /** Whether the sun stays up all day (midnight sun) when both are null. */
  readonly alwaysUp: boolean;
}

/** The sun's times on the calendar day (year, month 1-12, day) whose solar noon is nearest noon UTC at `longitude`. */
export function sunTimes(year: number, month: number, day: number, latitude: number, longitude: number): SunTimes {
  const julian = Date.UTC(year, month - 1, day, 12) / DAY_MS + J1970;
  const n = Math.round(julian - J2000 + 0.0008);
  const meanNoon = n - longitude / 360;
  const M = (((357.5291 + 0.98560028 * meanNoon) % 360) + 360) % 360;
  const C = 1.9148 * sin(M) + 0.02 * sin(2 * M) + 0.0003 * sin(3 * M);
  const lambda = (M + C + 180 + 102.9372) % 360;
  const transit = J2000 + meanNoon + 0.0053 * sin(M) - 0.0069 * sin(2 * lambda);
  const sinDecl = sin(lambda) * sin(23.4397);
  const cosDecl = Math.sqrt(1 - sinDecl * sinDecl);
  const cosHour = (sin(-0.833) - sin(latitude) * sinDecl) / (cos(latitude) * cosDecl);
  if (cosHour > 1) return { sunrise: null, sunset: null, alwaysUp: false };
  if (cosHour < -1) return { sunrise: null, sunset: null, alwaysUp: true };
  const hour = Math.acos(cosHour) / RAD / 360;
  const toMs = (j: number) => Math.round((j - J1970) * DAY_MS);
  return { sunrise: toMs(transit - hour), sunset: toMs(transit + hour), alwaysUp: false };
}
