/**
 * The web app's icon set: inline SVG (no icon font, no extra request), 24-unit grid, drawn with
 * the text colour so they follow light/dark. Icons are decorative (aria-hidden): the button or
 * link around one always carries the words, visibly or as its aria-label.
 */
import type { JSX } from 'preact';

/** Each icon as SVG path data, stroked at 2 units with round ends. Drawn for this app. */
const PATHS = {
  home: 'M3 11l9-8 9 8M5 9.5V21h5v-6h4v6h5V9.5',
  dashboard: 'M3 3h8v10H3zM13 3h8v6h-8zM13 11h8v10h-8zM3 15h8v6H3z',
  apps: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h6v6h-6z',
  devices: 'M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9V16h7v-2.1A6 6 0 0 0 12 3z',
  insights: 'M3 20h18M5 16l4-5 4 3 6-8',
  flows: 'M4 6h6v4H4zM14 14h6v4h-6zM7 10v6h7M17 14V8h-7',
  system: 'M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8zM12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
  download: 'M12 3v12M7 10l5 5 5-5M4 20h16',
  upload: 'M12 16V4M7 9l5-5 5 5M4 20h16',
  check: 'M4 12l5 5L20 6',
  restore: 'M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4',
  copy: 'M8 8h12v12H8zM4 16V4h12',
  plus: 'M12 5v14M5 12h14',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
  grip: 'M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01',
  close: 'M6 6l12 12M18 6L6 18',
  menu: 'M4 6h16M4 12h16M4 18h16',
  signout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
  phone: 'M7 2h10v20H7zM11 18h2',
  bell: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
  speech: 'M4 9h4l5-4v14l-5-4H4zM17 9a4 4 0 0 1 0 6',
  refresh: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v4h-4',
  play: 'M7 4l13 8-13 8z',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 7v5l3 2',
  turn: 'M7 4L3 8l4 4M3 8h14M17 12l4 4-4 4M21 16H7',
  left: 'M15 5l-7 7 7 7',
  right: 'M9 5l7 7-7 7',
  up: 'M5 15l7-7 7 7',
  down: 'M5 9l7 7 7-7',
  people: 'M9 11a3.5 3.5 0 1 0 0-7a3.5 3.5 0 1 0 0 7zM2 20a7 7 0 0 1 14 0M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14a6 6 0 0 1 4 6',
  moon: 'M20 14A8 8 0 1 1 10 4a6.5 6.5 0 0 0 10 10z',
  energy: 'M13 2L4 14h7l-1 8 9-12h-7z',
  // Device classes (Homey's `class`), for a tile whose app ships no icon of its own.
  socket: 'M6 3h12a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3zM9.5 10v3M14.5 10v3',
  sensor: 'M12 12h.01M8.5 8.5a5 5 0 0 0 0 7M15.5 8.5a5 5 0 0 1 0 7M5.6 5.6a9 9 0 0 0 0 12.8M18.4 5.6a9 9 0 0 1 0 12.8',
  door: 'M6 21V3h12v18M4 21h16M14.5 12h.01',
  thermostat: 'M10 14V5a2 2 0 0 1 4 0v9a4 4 0 1 1-4 0zM12 11v6',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 0 1 8 0v4M12 15v2',
  fan: 'M12 10a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM12 10c0-4 1-7 4-7s2 5-2 8M14 12c4 0 7 1 7 4s-5 2-8-2M12 14c0 4-1 7-4 7s-2-5 2-8M10 12c-4 0-7-1-7-4s5-2 8 2',
  blinds: 'M4 3h16M5 3v13h14V3M5 7h14M5 11h14M12 16v5',
  tv: 'M3 5h18v12H3zM8 21h8M12 17v4',
  heater: 'M4 6h16v12H4zM8 6v12M12 6v12M16 6v12M6 21v-3M18 21v-3',
  button: 'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z',
  camera: 'M3 7h4l2-3h6l2 3h4v13H3zM12 10a3.5 3.5 0 1 0 0 7a3.5 3.5 0 1 0 0-7z',
  other: 'M7 7h10v10H7zM9.5 3v4M14.5 3v4M9.5 17v4M14.5 17v4M3 9.5h4M3 14.5h4M17 9.5h4M17 14.5h4',
} as const;

export type IconName = keyof typeof PATHS;

/** Homey's device classes by the icon that draws them; a class not named here is `other`. */
const CLASS_ICONS: Readonly<Record<string, IconName>> = {
  light: 'devices',
  socket: 'socket',
  sensor: 'sensor',
  thermostat: 'thermostat',
  heater: 'heater',
  lock: 'lock',
  fan: 'fan',
  windowcoverings: 'blinds',
  curtain: 'blinds',
  blinds: 'blinds',
  sunshade: 'blinds',
  garagedoor: 'door',
  tv: 'tv',
  speaker: 'speech',
  amplifier: 'speech',
  button: 'button',
  remote: 'button',
  camera: 'camera',
  doorbell: 'bell',
};

/** The icon of a device class; a door contact (a sensor with alarm_contact) is drawn as a door. */
export function classIcon(deviceClass: string, capabilities: readonly string[]): IconName {
  if (deviceClass === 'sensor' && capabilities.includes('alarm_contact')) return 'door';
  return CLASS_ICONS[deviceClass] ?? 'other';
}

export function Icon({ name, size = 18 }: { name: IconName; size?: number }): JSX.Element {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width={name === 'grip' ? 3 : 2}
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
