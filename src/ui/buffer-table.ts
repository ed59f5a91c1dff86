/**
 * One expected range beside what the run left there, as a table of elements: index, address,
 * expected, got, and whether they differ. A differing row says so in its own column (and with
 * a mark), not only by its colour. Hex or typed text; all rows or only the differing ones;
 * long ranges show a page of rows at a time.
 */
import { el } from './dom.ts';
import { elementCount, elementText, ELEMENT_BYTES, type ElementMode } from './buffer-format.ts';
import type { BufferComparison } from './worker-api.ts';

const ROWS_PER_PAGE = 256;
let tableCount = 0;

export function renderBufferTable(b: BufferComparison): HTMLElement {
  const id = `buffer-${tableCount++}`;
  const n = elementCount(b.size, b.element);
  const size = ELEMENT_BYTES[b.element];
  const differs = new Set(b.differing);
  const tolerance = b.compare.kind === 'exact' ? 'exact' : `within ${b.compare.ulps} ulp`;
  const caption = `0x${b.address.toString(16)}, ${b.size} bytes: ${n} × ${b.element}, compared ${tolerance}; ${b.differing.length} differ`;

  const mode = el(
    'select',
    { id: `${id}-mode`, 'data-testid': 'buffer-mode' },
    el('option', { value: 'hex', text: 'hex' }),
    el('option', { value: 'typed', text: b.element === 'u8' || b.element === 'u32' ? 'decimal' : b.element }),
  );
  const onlyDiffering = el('input', { type: 'checkbox', id: `${id}-diff`, 'data-testid': 'buffer-only-differing' });
  const body = el('tbody');
  const more = el('button', { type: 'button', class: 'more' });
  let shown = 0;

  const rowsFor = (): number[] => {
    if (onlyDiffering.checked) return [...b.differing];
    return Array.from({ length: n }, (_, i) => i);
  };

  const cell = (bytes: Uint8Array | null, i: number, m: ElementMode): string =>
    bytes ? elementText(bytes, i, b.element, m) : '—';

  function render(reset: boolean): void {
    const m = mode.value as ElementMode;
    const rows = rowsFor();
    if (reset) {
      body.replaceChildren();
      shown = 0;
    }
    const to = Math.min(rows.length, shown + ROWS_PER_PAGE);
    for (let k = shown; k < to; k++) {
      const i = rows[k];
      const bad = differs.has(i);
      body.append(
        el(
          'tr',
          { class: bad ? 'differs' : undefined, 'data-testid': 'buffer-row', 'data-element': String(i) },
          el('td', { text: String(i) }),
          el('td', { class: 'mono', text: `0x${(b.address + i * size).toString(16)}` }),
          el('td', { class: 'mono', text: cell(b.expected, i, m) }),
          el('td', { class: 'mono', text: cell(b.got, i, m) }),
          el('td', { text: !b.expected || !b.got ? 'not compared' : bad ? '≠ differs' : '= same' }),
        ),
      );
    }
    shown = to;
    more.hidden = shown >= rows.length;
    more.textContent = `show ${Math.min(ROWS_PER_PAGE, rows.length - shown)} more of ${rows.length - shown}`;
  }

  mode.addEventListener('change', () => render(true));
  onlyDiffering.addEventListener('change', () => render(true));
  more.addEventListener('click', () => render(false));
  render(true);

  return el(
    'figure',
    { class: 'buffer', 'data-testid': 'buffer', 'data-differing': String(b.differing.length) },
    el('figcaption', { text: caption }),
    b.unavailable ? el('p', { class: 'problem', text: `expected bytes unavailable: ${b.unavailable}` }) : null,
    !b.got ? el('p', { class: 'problem', text: 'the range is not in guest memory after the run' }) : null,
    el(
      'div',
      { class: 'controls' },
      el('label', { for: mode.id, text: 'show as ' }),
      mode,
      el('label', {}, onlyDiffering, ' only differing elements'),
    ),
    el(
      'div',
      { class: 'scroll' },
      el(
        'table',
        { class: 'elements', 'aria-label': `elements of ${caption}` },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['element', 'address', 'expected', 'got', 'comparison'].map((h) => el('th', { scope: 'col', text: h })),
          ),
        ),
        body,
      ),
    ),
    more,
  );
}
