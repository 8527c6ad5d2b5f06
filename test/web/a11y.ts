/**
 * Accessibility checks of a page in Chromium. axe-core (a devDependency) runs (WCAG 2 A and AA)
 * and its serious and critical violations are returned. Our own checks run too, the rules of
 * axe's that matter most here, computed from what Chromium itself knows: every control has an
 * accessible name (Chromium's accessibility tree, as a screen reader gets it), images have alt
 * text, frames have titles, the page has a language and a title, referenced ids are unique,
 * lists hold list items, and text has WCAG AA contrast against the background it is painted on.
 * App pages (frames) are the apps' own and are not checked.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../helpers/hub.js';

export interface Violation {
  rule: string;
  impact: 'serious' | 'critical';
  where: string;
  detail: string;
}

const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');

/** Roles a person operates: each needs a name a screen reader can say. */
const NAMED_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'checkbox',
  'combobox',
  'radio',
  'spinbutton',
  'searchbox',
  'slider',
  'switch',
  'tab',
  'menuitem',
  'listbox',
  'img',
]);

interface AxNode {
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  backendDOMNodeId?: number;
  frameId?: string;
}

async function unnamedControls(page: Page): Promise<Violation[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    const out: Violation[] = [];
    for (const n of nodes) {
      const role = n.role?.value ?? '';
      if (n.ignored || !NAMED_ROLES.has(role) || (n.name?.value ?? '').trim() !== '') continue;
      let where = `a ${role}`;
      if (n.backendDOMNodeId !== undefined) {
        const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId })) as { object: { objectId?: string } };
        if (object.objectId) {
          const r = (await cdp.send('Runtime.callFunctionOn', {
            objectId: object.objectId,
            functionDeclaration: 'function () { return this.outerHTML.slice(0, 160); }',
            returnByValue: true,
          })) as { result: { value: string } };
          where = r.result.value;
        }
      }
      out.push({ rule: role === 'img' ? 'image-alt' : `${role}-name`, impact: 'critical', where, detail: `this ${role} has no accessible name` });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}

/** The in-page checks, run as a string so no DOM types are needed here. */
const IN_PAGE = `(() => {
  const out = [];
  const at = (el) => el.outerHTML.slice(0, 160);
  const d = document;
  if (!d.documentElement.lang) out.push({ rule: 'html-has-lang', impact: 'serious', where: '<html>', detail: 'no lang attribute' });
  if (!d.title.trim()) out.push({ rule: 'document-title', impact: 'serious', where: '<title>', detail: 'empty title' });
  for (const img of d.querySelectorAll('img')) if (!img.hasAttribute('alt')) out.push({ rule: 'image-alt', impact: 'critical', where: at(img), detail: 'no alt attribute' });
  for (const f of d.querySelectorAll('iframe')) if (!(f.title || '').trim()) out.push({ rule: 'frame-title', impact: 'serious', where: at(f), detail: 'frame without title' });
  const referenced = new Set();
  for (const el of d.querySelectorAll('[aria-labelledby],[aria-describedby],label[for]')) {
    for (const id of ((el.getAttribute('aria-labelledby') || '') + ' ' + (el.getAttribute('aria-describedby') || '') + ' ' + (el.getAttribute('for') || '')).split(/\\s+/)) if (id) referenced.add(id);
  }
  for (const id of referenced) if (d.querySelectorAll('#' + CSS.escape(id)).length > 1) out.push({ rule: 'duplicate-id-aria', impact: 'critical', where: '#' + id, detail: 'an id that labels or describes is used more than once' });
  for (const list of d.querySelectorAll('ul, ol')) for (const child of list.children) {
    if (!['LI', 'SCRIPT', 'TEMPLATE'].includes(child.tagName)) out.push({ rule: 'list', impact: 'serious', where: at(list), detail: 'a list holds a ' + child.tagName.toLowerCase() });
  }
  // Contrast: each visible text's colour against the first opaque background behind it.
  const rgba = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null; const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const blend = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const st = getComputedStyle(e);
      if (st.backgroundImage && st.backgroundImage !== 'none') return null; // cannot tell: axe says "needs review"
      const c = rgba(st.backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let base = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) base = blend(layer, base);
    return base;
  };
  const walker = d.createTreeWalker(d.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!el || seen.has(el) || !t.textContent.trim()) continue;
    seen.add(el);
    if (el.closest('[disabled], [aria-hidden="true"], .visually-hidden, svg')) continue; // axe skips disabled and hidden text
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || st.visibility !== 'visible' || Number(st.opacity) === 0) continue;
    const bg = background(el);
    const fg = rgba(st.color);
    if (!bg || !fg) continue;
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const color = blend({ ...fg, a: fg.a * opacity }, bg);
    const [hi, lo] = [lum(color), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(st.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    if (ratio < need) out.push({ rule: 'color-contrast', impact: 'serious', where: at(el), detail: 'contrast ' + ratio.toFixed(2) + ' < ' + need + ' (' + st.color + ' on ' + JSON.stringify(bg) + ')' });
  }
  return out;
})()`;

/** Serious and critical accessibility problems of what `page` shows now (axe's and ours). App frames are left out (`iframes: false`): they are the apps' own. */
export async function accessibilityViolations(page: Page): Promise<Violation[]> {
  const out: Violation[] = [...(await unnamedControls(page)), ...((await page.evaluate(IN_PAGE)) as Violation[])];
  if (!existsSync(AXE)) throw new Error(`axe-core is a devDependency: ${AXE} is missing (npm ci)`);
  // Evaluated through the debugging protocol, not added as a <script>: the hub's CSP refuses inline scripts.
  await page.evaluate(await readFile(AXE, 'utf8'));
  const found = (await page.evaluate(
    `axe.run({ exclude: [['iframe']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, iframes: false }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ rule: 'axe:' + v.id, impact: v.impact, where: v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | '), detail: v.help })))`,
  )) as Violation[];
  out.push(...found);
  return out;
}

/**
 * Presses Tab until focus comes round again and answers the controls it never reached: every
 * enabled, visible control of the page must be reachable by keyboard. (Of a radio group only the
 * checked one is a Tab stop; the arrow keys move within it.)
 */
export async function unreachableByTab(page: Page): Promise<string[]> {
  const total = (await page.evaluate(`(() => {
    const els = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
      .filter((e) => !(e.type === 'radio' && !e.checked && e.form && [...e.form.querySelectorAll('input[type=radio]')].some((r) => r.name === e.name && r.checked)))
      .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length > 0 && getComputedStyle(e).visibility === 'visible' && !e.closest('[inert], details:not([open]) > :not(summary)'));
    els.forEach((e, i) => e.setAttribute('data-tab-check', String(i)));
    window.__tabSeen = new Set();
    document.addEventListener('focusin', (ev) => { const i = ev.target.getAttribute && ev.target.getAttribute('data-tab-check'); if (i !== null) window.__tabSeen.add(i); });
    document.activeElement && document.activeElement.blur();
    return els.length;
  })()`)) as number;
  // Controls a page adds while the walk goes on (a list that finishes loading) lengthen the walk:
  // go on, up to twice round, until every marked control has had the focus.
  const left = `[...document.querySelectorAll('[data-tab-check]')].filter((e) => !window.__tabSeen.has(e.getAttribute('data-tab-check'))).length`;
  for (let i = 0; i < 2 * total + 6; i++) {
    await page.keyboard.press('Tab');
    if (i >= total && (await page.evaluate(left)) === 0) break;
  }
  return (await page.evaluate(
    `[...document.querySelectorAll('[data-tab-check]')].filter((e) => !window.__tabSeen.has(e.getAttribute('data-tab-check'))).map((e) => e.outerHTML.slice(0, 120))`,
  )) as string[];
}
