/** Where devices on the LAN reach the hub (homey.cloud.getLocalAddress()): the bound address, or the first LAN one. */
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanAddress } from '../../src/core/lan-address.js';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal }) as NetworkInterfaceInfo;
const PI = { lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)], wlan0: [nic('fe80::1', 'IPv6'), nic('192.168.1.5', 'IPv4')] };

describe('lanAddress', () => {
  it('answers the first IPv4 that is not a loopback for a hub bound to every address', () => {
    expect(lanAddress('0.0.0.0', 8720, PI)).toBe('192.168.1.5:8720');
    expect(lanAddress('::', 80, PI)).toBe('192.168.1.5:80');
  });
  it('answers the bound address for a hub bound to one, in brackets for IPv6', () => {
    expect(lanAddress('192.168.1.9', 8720, PI)).toBe('192.168.1.9:8720');
    expect(lanAddress('fd00::5', 8720, PI)).toBe('[fd00::5]:8720');
  });
  it('answers the loopback on a machine with no LAN', () => {
    expect(lanAddress('0.0.0.0', 8720, { lo: PI.lo })).toBe('127.0.0.1:8720');
  });
});
