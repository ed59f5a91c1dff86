/** The few DOM helpers every view uses: making elements with attributes and children. */

export type Child = Node | string | null | undefined | false;

/**
 * An element with attributes (`class`, `text` for textContent, anything else as an attribute;
 * undefined values are skipped) and children (falsy children are skipped).
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Readonly<Record<string, string | undefined>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** A table with a header row and body rows of text or nodes. */
export function table(
  head: readonly string[],
  rows: readonly (readonly (Node | string)[])[],
  props: Readonly<Record<string, string | undefined>> = {},
): HTMLTableElement {
  return el(
    'table',
    props,
    el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col', text: h })))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c))))),
  );
}

/** A `<dl>` of term/description pairs. */
export function definitions(pairs: readonly (readonly [string, Node | string])[], cls = 'facts'): HTMLDListElement {
  const dl = el('dl', { class: cls });
  for (const [k, v] of pairs) dl.append(el('dt', { text: k }), el('dd', {}, v));
  return dl;
}

export const hex32 = (v: number): string => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
