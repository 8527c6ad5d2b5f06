/** A two-namespace LAN for the Matter tests (scripts/matter/lan.mjs, shared with the bench and the screenshots). */
export { type Lan, lanMissing, makeLan } from '../../scripts/matter/lan.mjs';
