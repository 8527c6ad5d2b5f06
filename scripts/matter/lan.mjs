// A small LAN for protocols that need one (Matter's mDNS does not work on a single loopback), for
// the tests (test/helpers/netns.ts), the bench and the screenshots: two network namespaces, "hub"
// and "device", joined by a veth pair, and a second veth pair from the caller's own namespace to
// the hub's, so the caller reaches the hub's Web API at `hubAddress`. Needs root (CAP_NET_ADMIN)
// and iproute2: `lanMissing()` says why not where they are missing. Names and addresses carry
// the caller's pid, so runs side by side do not meet.
import { spawnSync } from 'node:child_process';

function ip(args) {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  return { ok: r.status === 0, err: (r.stderr || r.error?.message || '').trim() };
}

let probed;

/** Why this machine cannot make the LAN (not root, no iproute2, namespaces refused), or null. */
export function lanMissing() {
  if (probed !== undefined) return probed;
  const name = `hearth-probe-${process.pid}`;
  const made = ip(['netns', 'add', name]);
  if (made.ok) ip(['netns', 'del', name]);
  probed = made.ok
    ? null
    : `network namespaces cannot be made here (${made.err || 'ip netns add failed'}): it needs root (CAP_NET_ADMIN) and iproute2, as CI has`;
  return probed;
}

function must(args) {
  const r = ip(args);
  if (!r.ok) throw new Error(`ip ${args.join(' ')}: ${r.err}`);
}

export function makeLan() {
  const tag = String(process.pid);
  const octet = process.pid % 250;
  const hubNs = `hearth-${tag}-hub`;
  const deviceNs = `hearth-${tag}-dev`;
  const [lanHub, lanDev, upTest, upHub] = ['la', 'lb', 'ua', 'ub'].map((s) => `h${s}${tag}`.slice(0, 15));
  const hubAddress = `10.78.${octet}.2`;
  const close = () => {
    ip(['netns', 'del', hubNs]);
    ip(['netns', 'del', deviceNs]);
    ip(['link', 'del', upTest]);
  };
  close();
  try {
    must(['netns', 'add', hubNs]);
    must(['netns', 'add', deviceNs]);
    must(['link', 'add', lanHub, 'type', 'veth', 'peer', 'name', lanDev]);
    must(['link', 'set', lanHub, 'netns', hubNs]);
    must(['link', 'set', lanDev, 'netns', deviceNs]);
    must(['link', 'add', upTest, 'type', 'veth', 'peer', 'name', upHub]);
    must(['link', 'set', upHub, 'netns', hubNs]);
    for (const [ns, dev, address] of [
      [hubNs, lanHub, `10.77.${octet}.1/24`],
      [deviceNs, lanDev, `10.77.${octet}.2/24`],
    ]) {
      must(['-n', ns, 'link', 'set', 'lo', 'up']);
      must(['-n', ns, 'addr', 'add', address, 'dev', dev]);
      must(['-n', ns, 'link', 'set', dev, 'up']);
      // mDNS's IPv4 group goes out on the LAN link (IPv6 link-local needs no route).
      must(['-n', ns, 'route', 'add', '224.0.0.0/4', 'dev', dev]);
    }
    must(['addr', 'add', `10.78.${octet}.1/24`, 'dev', upTest]);
    must(['link', 'set', upTest, 'up']);
    must(['-n', hubNs, 'addr', 'add', `${hubAddress}/24`, 'dev', upHub]);
    must(['-n', hubNs, 'link', 'set', upHub, 'up']);
  } catch (err) {
    close();
    throw err;
  }
  return { hubNs, deviceNs, hubAddress, exec: (ns, command) => ['ip', 'netns', 'exec', ns, ...command], close };
}
