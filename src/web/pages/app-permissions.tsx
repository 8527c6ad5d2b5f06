/**
 * What an app may do, shown before it is installed or upgraded (a store release) and on its
 * card once it is: each permission with the hub's sentence for it, a mark when it uses the
 * network, and how apps are contained on this hub. The sentences come from the hub
 * (src/apps/manifest/permissions.ts); this module only lays them out, and asks the owner for
 * the one grant that is theirs to give: network access.
 */
import type { JSX } from 'preact';
import { call } from '../client.js';
import type { AppsState, CatalogueRelease, PermissionDetail } from '../types.js';
import { Err, useAction } from '../ui.js';

type Containment = AppsState['containment'];

/** The permissions with their sentences; those in `added` are marked new. */
export function PermissionList({ details, added = [] }: { details: PermissionDetail[]; added?: string[] }): JSX.Element {
  if (details.length === 0)
    return (
      <p class="muted small" data-testid="permissions">
        Asks for no permissions.
      </p>
    );
  return (
    <ul class="permissions" data-testid="permissions">
      {details.map((d) => (
        <li key={d.id} data-permission={d.id} class={d.granted ? '' : 'muted'}>
          {/* The sentence is what a family reads; Homey's name for it is for the app's author, after it. */}
          {d.sentence} <code class="muted small">{d.id}</code>
          {added.includes(d.id) ? (
            <>
              {' '}
              <span class="badge warn">new</span>
            </>
          ) : null}
          {d.granted ? null : (
            <>
              {' '}
              <span class="badge idle">not given</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * Whether the app uses the network. The "no network" mark only promises a loopback of its own
 * where apps run in namespaces: under the permission model alone nothing keeps an app off it.
 */
export function NetworkMark({ network, containment }: { network: boolean; containment: Containment | undefined }): JSX.Element {
  if (network) {
    return (
      <span class="badge warn" data-network="yes">
        uses the network
      </span>
    );
  }
  const text =
    containment === 'namespaces'
      ? 'no network (a loopback of its own)'
      : containment === 'permission-model-only'
        ? 'asks for no network (not enforced on this hub)'
        : 'asks for no network';
  return (
    <span class="badge idle" data-network="no">
      {text}
    </span>
  );
}

/**
 * A store release's permissions, shown before its Install or Upgrade button. `installed` is the
 * installed version's permissions when the release would upgrade it: what is new is marked.
 */
export function ReleasePermissions({
  release,
  installed,
  containment,
}: {
  release: CatalogueRelease;
  installed: string[] | null;
  containment: Containment | undefined;
}): JSX.Element {
  if (release.permissions === null || release.network === null) {
    return (
      <p class="muted small" data-testid="permissions-unlisted">
        The catalogue does not list what this release asks for; its card shows it once installed.
      </p>
    );
  }
  const ids = release.permissions.map((d) => d.id);
  const added = installed ? ids.filter((p) => !installed.includes(p)) : [];
  const dropped = installed ? installed.filter((p) => !ids.includes(p)) : [];
  return (
    <div class="release-permissions">
      <NetworkMark network={release.network} containment={containment} />
      <PermissionList details={release.permissions} added={added} />
      {added.length > 0 ? (
        <p class="notice" data-testid="new-permissions">
          This upgrade asks for {added.length === 1 ? 'a new permission' : 'new permissions'}: {added.join(', ')}.
        </p>
      ) : null}
      {dropped.length > 0 ? (
        <p class="muted small" data-testid="dropped-permissions">
          It no longer asks for: {dropped.join(', ')}.
        </p>
      ) : null}
    </div>
  );
}

/** How apps are contained on this hub, in one line (the apps state: getAppsState). */
export function ContainmentLine({ state }: { state: AppsState }): JSX.Element {
  const { memoryMb, memoryMaxMb, diskMb, diskMaxMb } = state.limits;
  const limits = `Each app may use ${memoryMb} MB of memory (up to ${memoryMaxMb} MB if it asks) and ${diskMb} MB of storage (up to ${diskMaxMb} MB).`;
  // In the words of the people who live with the hub; how it is done is one click away.
  const how = (text: string): JSX.Element => (
    <details class="small">
      <summary>How</summary>
      {text}
    </details>
  );
  if (state.containment === 'namespaces') {
    return (
      <div class="muted small" data-testid="containment" data-containment="namespaces">
        <p>Apps are kept apart: each sees only its own files, and reaches the network only when you allow it. {limits}</p>
        {how("Each app runs in Linux namespaces of its own (bubblewrap), inside Node's permission model.")}
      </div>
    );
  }
  if (state.held) {
    return (
      <p class="notice" data-testid="containment" data-containment="held">
        No app runs: {state.held}.
      </p>
    );
  }
  return (
    <div class="notice" data-testid="containment" data-containment="permission-model-only">
      <p>
        Apps are not fully kept apart here, as the owner chose (app sandbox off): any app can reach the network whatever it asks for, and could stop the hub.{' '}
        {limits}
      </p>
      {how(
        `Apps run under Node's permission model only (${state.containmentReason ?? 'no namespaces here'}): nothing keeps an app off the network or from signalling the hub.`,
      )}
    </div>
  );
}

/** The sentence beside the owner's network grant, wherever it is asked (install, the app's card). */
export const NETWORK_SENTENCE = 'Network access: the LAN and the internet (apps that reach devices or web services need it)';

/**
 * The owner's grant of network access to an installed app, changed at once (the app restarts
 * if it runs: its namespaces are made when it starts).
 */
export function NetworkGrant({ appId, granted }: { appId: string; granted: boolean }): JSX.Element {
  const a = useAction();
  return (
    <div data-testid="network-grant">
      <label class="inline">
        <input
          type="checkbox"
          checked={granted}
          disabled={a.busy}
          onChange={(e) => {
            const network = (e.target as HTMLInputElement).checked;
            // The card follows from the app.update event the change publishes.
            void a.run(() => call('apps', 'updateApp', { params: { id: appId }, body: { network } }));
          }}
        />{' '}
        {NETWORK_SENTENCE}
      </label>
      <Err msg={a.error} />
    </div>
  );
}
