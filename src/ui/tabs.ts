/**
 * The view tabs, as the WAI-ARIA tabs pattern has them: a `tablist` of `tab` buttons, one
 * `tabpanel` each; only the selected tab is in the Tab order, the arrow keys (and Home/End)
 * move between tabs and select them, and the panel follows. The selected view is kept in the
 * URL's hash, so a link (or a reload) opens the same view.
 */
import { el } from './dom.ts';

export interface TabSpec {
  /** The id in the hash and the panel's data-testid ("program", "run", …). */
  readonly id: string;
  readonly label: string;
}

export interface Tabs {
  readonly list: HTMLElement;
  readonly panels: ReadonlyMap<string, HTMLElement>;
  readonly selected: string;
  select(id: string, focus?: boolean): void;
  /** Called after a tab is selected (also when it was selected already and is chosen again). */
  onSelect(f: (id: string) => void): void;
}

export function makeTabs(specs: readonly TabSpec[], label: string): Tabs {
  const list = el('div', { role: 'tablist', 'aria-label': label, class: 'tabs' });
  const panels = new Map<string, HTMLElement>();
  const buttons = new Map<string, HTMLButtonElement>();
  const listeners: ((id: string) => void)[] = [];
  let selected = specs[0].id;

  for (const s of specs) {
    const tab = el('button', {
      type: 'button',
      role: 'tab',
      id: `tab-${s.id}`,
      'aria-controls': `panel-${s.id}`,
      'data-view': s.id,
      text: s.label,
    });
    const panel = el('section', {
      role: 'tabpanel',
      id: `panel-${s.id}`,
      'aria-labelledby': `tab-${s.id}`,
      'data-testid': s.id,
      tabindex: '0',
      class: 'panel',
    });
    tab.addEventListener('click', () => select(s.id));
    buttons.set(s.id, tab);
    panels.set(s.id, panel);
    list.append(tab);
  }

  list.addEventListener('keydown', (e) => {
    const ids = specs.map((s) => s.id);
    const at = ids.indexOf(selected);
    let to: number | undefined;
    if (e.key === 'ArrowRight') to = (at + 1) % ids.length;
    else if (e.key === 'ArrowLeft') to = (at - 1 + ids.length) % ids.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = ids.length - 1;
    if (to === undefined) return;
    e.preventDefault();
    select(ids[to], true);
  });

  function select(id: string, focus = false): void {
    if (!buttons.has(id)) return;
    selected = id;
    for (const [k, b] of buttons) {
      const on = k === id;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      panels.get(k)!.hidden = !on;
    }
    if (focus) buttons.get(id)!.focus();
    if (location.hash !== `#${id}`) history.replaceState(null, '', `${location.pathname}${location.search}#${id}`);
    for (const f of listeners) f(id);
  }

  const fromHash = location.hash.slice(1);
  select(buttons.has(fromHash) ? fromHash : selected);

  return {
    list,
    panels,
    get selected() {
      return selected;
    },
    select,
    onSelect: (f) => void listeners.push(f),
  };
}
