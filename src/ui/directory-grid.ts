/**
 * A texture slot's descriptor directory (D013) as a grid of its slots: each cell coloured by
 * occupancy and probe distance AND labelled (a digit for the distance, `c` for a cube, `·` for
 * empty, and an aria-label in words), so colour never carries the meaning alone. The grid is
 * one Tab stop (a roving tabindex); the arrow keys, Home/End and PageUp/PageDown move within
 * it, Enter or Space opens a slot.
 */
import { el } from './dom.ts';
import type { DirectorySlotSummary } from './worker-api.ts';

/** Cells a grid row holds. */
export const GRID_COLUMNS = 32;
/** Larger directories list their occupied slots only (a 2^20-slot grid would not help anyone). */
export const MOST_GRID_CELLS = 16384;

/** A cell's label in words; `levels`: the mip levels of the slot's image, named where there are more than one. */
export function slotLabel(index: number, s: DirectorySlotSummary | undefined, levels = 1): string {
  if (!s) return `slot ${index}: empty`;
  const where = s.distance === 0 ? 'at its home slot' : `${s.distance} above its home slot ${s.home}`;
  const mips = levels > 1 ? `, ${levels} mip levels` : '';
  return `slot ${index}: place ${s.place}${s.cube ? ', a cube' : ''}${mips}, probe distance ${s.distance} (${where})`;
}

export class DirectoryGrid {
  readonly element: HTMLElement;
  private readonly cells: HTMLButtonElement[] = [];
  private focusIndex = 0;

  constructor(
    slotCount: number,
    slots: readonly DirectorySlotSummary[],
    private readonly open: (index: number, cell: HTMLButtonElement) => void,
    /** The mip levels of the image at a place (the slot table's images), for the cells' labels. */
    levelsAt: (place: number) => number = () => 1,
  ) {
    const bySlot = new Map(slots.map((s) => [s.index, s]));
    const shown: number[] =
      slotCount <= MOST_GRID_CELLS ? Array.from({ length: slotCount }, (_, i) => i) : slots.map((s) => s.index);
    const grid = el('div', {
      class: 'directory-grid',
      role: 'grid',
      'aria-label': `directory of ${slotCount} slots, ${slots.length} occupied; arrow keys move, Enter opens`,
      'aria-rowcount': String(Math.ceil(shown.length / GRID_COLUMNS)),
      'data-testid': 'directory-grid',
      style: `--columns: ${GRID_COLUMNS}`,
    });
    for (let r = 0; r * GRID_COLUMNS < shown.length; r++) {
      const row = el('div', { role: 'row', class: 'grid-row', 'aria-rowindex': String(r + 1) });
      for (const index of shown.slice(r * GRID_COLUMNS, (r + 1) * GRID_COLUMNS)) {
        const s = bySlot.get(index);
        const k = this.cells.length;
        const label = slotLabel(index, s, s ? levelsAt(s.place) : 1);
        const cell = el('button', {
          type: 'button',
          role: 'gridcell',
          class: `dir-cell ${s ? `occupied d${s.distance}` : 'empty'}`,
          'data-testid': 'directory-slot',
          'data-slot': String(index),
          'data-occupied': String(!!s),
          ...(s ? { 'data-distance': String(s.distance), 'data-place': String(s.place) } : {}),
          'aria-label': label,
          title: label,
          tabindex: k === 0 ? '0' : '-1',
          text: s ? `${s.distance}${s.cube ? 'c' : ''}` : '·',
        });
        if (s) cell.addEventListener('click', () => this.activate(k));
        else cell.setAttribute('aria-disabled', 'true');
        cell.addEventListener('focus', () => (this.focusIndex = k));
        this.cells.push(cell);
        row.append(cell);
      }
      grid.append(row);
    }
    grid.addEventListener('keydown', (e) => this.key(e));
    const legend = el(
      'ul',
      { class: 'inline legend', 'aria-label': 'legend of the directory grid' },
      el('li', {}, el('span', { class: 'dir-cell empty', text: '·' }), ' empty'),
      ...[0, 1, 2, 3].map((d) =>
        el(
          'li',
          {},
          el('span', { class: `dir-cell occupied d${d}`, text: String(d) }),
          ` ${d === 0 ? 'at its home slot' : `${d} above its home`}`,
        ),
      ),
      el('li', {}, el('span', { class: 'dir-cell occupied d0', text: '0c' }), ' a cube'),
    );
    this.element = el(
      'div',
      {},
      legend,
      slotCount > MOST_GRID_CELLS
        ? el('p', { class: 'note', text: `${slotCount} slots: only the ${slots.length} occupied ones are shown` })
        : null,
      grid,
    );
  }

  private activate(k: number): void {
    const cell = this.cells[k];
    if (cell && cell.dataset.occupied === 'true') this.open(Number(cell.dataset.slot), cell);
  }

  private key(e: KeyboardEvent): void {
    const n = this.cells.length;
    const at = this.focusIndex;
    const col = at % GRID_COLUMNS;
    const moves: Record<string, number> = {
      ArrowRight: at + 1,
      ArrowLeft: at - 1,
      ArrowDown: at + GRID_COLUMNS,
      ArrowUp: at - GRID_COLUMNS,
      Home: at - col,
      End: Math.min(n - 1, at - col + GRID_COLUMNS - 1),
      PageDown: at + GRID_COLUMNS * 8,
      PageUp: at - GRID_COLUMNS * 8,
    };
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.activate(at);
      return;
    }
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.moveTo(Math.max(0, Math.min(n - 1, to)));
  }

  private moveTo(k: number): void {
    this.cells[this.focusIndex]?.setAttribute('tabindex', '-1');
    const cell = this.cells[k]!;
    cell.setAttribute('tabindex', '0');
    this.focusIndex = k;
    cell.focus();
  }
}
