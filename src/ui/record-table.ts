/**
 * A texture slot's table, one row a record (65536 of them in D983's shape), virtualised: only
 * the rows in view (and a few either side) are in the DOM, between two spacer rows that keep
 * the scroll height, so scrolling stays smooth. Filters by T# TYPE, format and outcome (bound,
 * repeat, left out, empty); a left-out record says why in its own column. The scroll box is in
 * the Tab order and scrolls with the arrow, Page and Home/End keys.
 */
import { el, hex32 } from './dom.ts';
import { RECORD_KINDS, type SlotTable } from './worker-api.ts';

/** Every row is this tall (CSS keeps it so), which is what lets the view compute what is in sight. */
export const ROW_PX = 22;
/** Rows drawn beyond the visible ones, each side. */
const OVERSCAN = 24;
const NONE = 0xffff;

const OUTCOME_TEXT: Readonly<Record<(typeof RECORD_KINDS)[number], string>> = {
  empty: 'empty (base 0)',
  image: 'bound',
  repeat: 'bound (repeat)',
  'left-out': 'left out',
};

export interface RecordFilter {
  /** A T# TYPE name, '' for any. */
  readonly type: string;
  readonly format: string;
  /** 'bound' (images and repeats), 'not-bound' (left out), 'empty', or '' for any. */
  readonly bound: '' | 'bound' | 'not-bound' | 'empty';
}

/** The records a filter keeps, in record order. */
export function filterRecords(t: SlotTable, f: RecordFilter): Int32Array {
  const n = t.recordCount ?? 0;
  const names = t.names ?? [];
  const type = f.type === '' ? -1 : names.indexOf(f.type);
  const format = f.format === '' ? -1 : names.indexOf(f.format);
  const out = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const kind = RECORD_KINDS[t.kinds![i]!]!;
    if (f.bound === 'bound' && kind !== 'image' && kind !== 'repeat') continue;
    if (f.bound === 'not-bound' && kind !== 'left-out') continue;
    if (f.bound === 'empty' && kind !== 'empty') continue;
    if (type >= 0 && t.typeNames![i] !== type) continue;
    if (format >= 0 && t.formatNames![i] !== format) continue;
    out[k++] = i;
  }
  return out.subarray(0, k);
}

export class RecordTable {
  readonly element: HTMLElement;
  private readonly scroller: HTMLDivElement;
  private readonly body = el('tbody');
  private readonly count = el('p', { class: 'note', 'data-testid': 'records-count', 'aria-live': 'polite' });
  private rows: Int32Array = new Int32Array(0);
  private drawn = { from: -1, to: -1 };
  private frame = 0;
  private readonly filters: { type: HTMLSelectElement; format: HTMLSelectElement; bound: HTMLSelectElement };

  constructor(private readonly t: SlotTable) {
    const names = t.names ?? [];
    const present = (column: Uint16Array | undefined): string[] => {
      const seen = new Set<number>();
      for (const v of column ?? []) if (v !== NONE) seen.add(v);
      return [...seen].map((i) => names[i]!).sort();
    };
    const choice = (id: string, label: string, options: readonly [string, string][]): HTMLSelectElement => {
      const s = el(
        'select',
        { id, 'data-testid': id, 'aria-label': label },
        ...options.map(([value, text]) => el('option', { value, text })),
      );
      s.addEventListener('change', () => this.refilter());
      return s;
    };
    const slot = t.slot;
    const typeSel = choice(`records-type-${slot}`, 'filter records by T# TYPE', [
      ['', 'any TYPE'],
      ...present(t.typeNames).map((n): [string, string] => [n, n]),
    ]);
    const formatSel = choice(`records-format-${slot}`, 'filter records by format', [
      ['', 'any format'],
      ...present(t.formatNames).map((n): [string, string] => [n, n]),
    ]);
    const boundSel = choice(`records-bound-${slot}`, 'filter records by whether they are bound', [
      ['', 'bound or not'],
      ['bound', 'bound'],
      ['not-bound', 'not bound (left out)'],
      ['empty', 'empty'],
    ]);
    typeSel.dataset.filter = 'type';
    formatSel.dataset.filter = 'format';
    boundSel.dataset.filter = 'bound';
    this.filters = { type: typeSel, format: formatSel, bound: boundSel };

    this.scroller = el(
      'div',
      {
        class: 'records-scroll',
        tabindex: '0',
        role: 'region',
        'aria-label': `records of texture slot ${slot}'s table (scroll with the arrow and Page keys)`,
        'data-testid': 'records-scroll',
      },
      el(
        'table',
        { class: 'mono-table records', 'aria-label': `records of texture slot ${slot}`, 'data-testid': 'records' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['record', 'outcome', 'place', 'TYPE', 'format', 'why left out', 'words'].map((h) =>
              el('th', { scope: 'col', text: h }),
            ),
          ),
        ),
        this.body,
      ),
    );
    this.scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.scroller.addEventListener('keydown', (e) => this.key(e));
    this.element = el(
      'div',
      { class: 'record-table' },
      el('div', { class: 'controls' }, typeSel, formatSel, boundSel),
      this.count,
      this.scroller,
    );
    this.refilter();
  }

  private refilter(): void {
    this.rows = filterRecords(this.t, {
      type: this.filters.type.value,
      format: this.filters.format.value,
      bound: this.filters.bound.value as RecordFilter['bound'],
    });
    const n = this.t.recordCount ?? 0;
    this.count.textContent = `${this.rows.length} of ${n} records`;
    this.scroller.scrollTop = 0;
    this.draw(true);
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private key(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_PX) - 1) * ROW_PX;
    const by: Record<string, number> = { ArrowDown: ROW_PX, ArrowUp: -ROW_PX, PageDown: page, PageUp: -page };
    if (e.key in by) this.scroller.scrollTop += by[e.key]!;
    else if (e.key === 'Home') this.scroller.scrollTop = 0;
    else if (e.key === 'End') this.scroller.scrollTop = this.scroller.scrollHeight;
    else return;
    e.preventDefault();
  }

  /**
   * Draws the rows in view and OVERSCAN either side; the spacers stand for the others. While
   * the rows in view are still among those drawn, nothing changes: a scroll redraws once every
   * OVERSCAN rows or so, not every frame.
   */
  private draw(force = false): void {
    const total = this.rows.length;
    const view = this.scroller.clientHeight || 400;
    const top = this.scroller.scrollTop;
    const inFirst = Math.floor(top / ROW_PX);
    const inLast = Math.min(total, Math.ceil((top + view) / ROW_PX));
    if (!force && this.drawn.from >= 0 && this.drawn.from <= inFirst && inLast <= this.drawn.to) return;
    const first = Math.max(0, inFirst - OVERSCAN);
    const last = Math.min(total, inLast + OVERSCAN);
    this.drawn = { from: first, to: last };
    const spacer = (rows: number): HTMLTableRowElement =>
      el('tr', { class: 'spacer', 'aria-hidden': 'true', style: `height: ${rows * ROW_PX}px` });
    const out: HTMLTableRowElement[] = [spacer(first)];
    for (let k = first; k < last; k++) out.push(this.row(this.rows[k]!, k));
    out.push(spacer(total - last));
    if (total === 0) out.push(el('tr', {}, el('td', { colspan: '7', text: 'no record matches the filters' })));
    this.body.replaceChildren(...out);
  }

  private row(i: number, k: number): HTMLTableRowElement {
    const t = this.t;
    const names = t.names!;
    const kind = RECORD_KINDS[t.kinds![i]!]!;
    const name = (v: number): string => (v === NONE ? '—' : names[v]!);
    const words = Array.from(t.recordWords!.subarray(i * 8, i * 8 + 8), hex32).join(' ');
    const place = t.places![i]!;
    return el(
      'tr',
      { class: `record ${kind}`, 'data-testid': 'record', 'data-record': String(i), 'aria-rowindex': String(k + 2) },
      el('td', { text: String(i) }),
      el('td', { text: OUTCOME_TEXT[kind] }),
      el('td', { text: place >= 0 ? String(place) : '—' }),
      el('td', { text: name(t.typeNames![i]!) }),
      el('td', { text: name(t.formatNames![i]!) }),
      el('td', {
        class: 'why',
        text: kind === 'left-out' ? `${name(t.reasons![i]!)}: ${t.details?.[i] ?? ''}` : '',
      }),
      el('td', { class: 'words', text: kind === 'empty' ? '' : words }),
    );
  }

  /** For the benchmark and tests: the scroll box. */
  get scrollBox(): HTMLDivElement {
    return this.scroller;
  }
}
