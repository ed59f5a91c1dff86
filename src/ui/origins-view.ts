/**
 * The Program view's descriptor origins (issue 7): beside each instruction that reads a
 * descriptor, where each of its register ranges came from (user data, a fixed load, a table
 * selection through a waterfall, constants), from the tracer (src/tracer, D012) through the
 * tables report; and each register of a range as its own control (D025). Hovering a register
 * shows its own provenance chain (the `title`); opening it (click, Enter, Space) lists that
 * chain in the page, so a keyboard reaches it too. A range opens to its classification. A
 * selecting access links to its texture slot, which the Tables view then highlights.
 */
import { el } from './dom.ts';
import type { AccessOrigins, DescriptorOrigin } from './worker-api.ts';

/**
 * The provenance chain of one register of a descriptor (`index`: its dword in the range) as
 * lines: which dword of which range it is and where its word comes from in short, its
 * provenance, then the tracer's steps that made it, sources first.
 */
export function registerChain(d: DescriptorOrigin, index: number): string[] {
  const w = d.words[index];
  if (!w)
    throw new RangeError(`${d.kind} ${d.registers} has ${d.words.length} traced registers: there is no dword ${index}`);
  const sources = w.sources.length ? ` (${w.sources.join(', ')})` : '';
  const lines = [`${w.register}, dword ${index} of ${d.kind} ${d.registers}${sources}`, `= ${w.provenance}`];
  for (const step of w.chain) lines.push(`    ${step}`);
  return lines;
}

/** What a range opens to: its classification (each register's chain is its own, `registerChain`). */
export const rangeText = (d: DescriptorOrigin): string => `${d.kind} ${d.registers}: ${d.classification}`;

/** The short form shown on the instruction's line: `T# s[32:39] ← table selection, waterfall`. */
export const originSummary = (d: DescriptorOrigin): string => `${d.kind} ${d.registers} ← ${d.sources.join(', ')}`;

/** A disclosure whose body is made when it is first opened (a listing holds hundreds of chains). */
function disclosure(
  props: Readonly<Record<string, string | undefined>>,
  summary: HTMLElement,
  body: () => HTMLElement,
): HTMLDetailsElement {
  const details = el('details', props, summary);
  details.addEventListener('toggle', () => details.append(body()), { once: true });
  return details;
}

/** One register of a range: its name, its chain on hover and when opened. */
function registerControl(d: DescriptorOrigin, index: number): HTMLElement {
  const w = d.words[index]!;
  const chain = registerChain(d, index).join('\n');
  const sources = w.sources.join(', ') || 'no source named';
  return disclosure(
    {
      class: 'origin-register',
      'data-testid': 'origin-register',
      'data-register': w.register,
      'data-sources': w.sources.join(','),
    },
    el('summary', {
      title: chain,
      'aria-label': `${w.register}, dword ${index} of ${d.kind} ${d.registers}: ${sources}. Open for its provenance chain.`,
      text: w.register,
    }),
    () => el('pre', { class: 'origin-chain', 'data-testid': 'register-chain', text: chain }),
  );
}

/**
 * Adds the origins to the listing's instruction items (by byte offset from the entry); earlier
 * ones are replaced. Returns how many accesses were annotated.
 */
export function annotateOrigins(
  items: ReadonlyMap<number, HTMLLIElement>,
  origins: readonly AccessOrigins[],
  toSlot: (slot: string) => void,
): number {
  for (const item of items.values()) item.querySelector('.origins')?.remove();
  let annotated = 0;
  for (const a of origins) {
    const item = items.get(a.offset);
    if (!item || a.descriptors.length === 0) continue;
    const box = el('span', {
      class: `origins ${a.classification}`,
      'data-testid': 'origins',
      'data-classification': a.classification,
    });
    for (const d of a.descriptors) {
      const range = rangeText(d);
      const registers = el(
        'span',
        { class: 'origin-registers', role: 'group', 'aria-label': `the registers of ${d.kind} ${d.registers}` },
        ...d.words.map((_, i) => registerControl(d, i)),
      );
      box.append(
        el(
          'span',
          { class: 'origin', 'data-testid': 'origin', 'data-kind': d.kind, 'data-registers': d.registers },
          disclosure(
            { class: 'origin-range' },
            el('summary', {
              title: range,
              'aria-label': `${originSummary(d)}; ${d.classification}. Open for the range's classification; each register opens to its own chain.`,
              text: originSummary(d),
            }),
            () => el('pre', { class: 'origin-chain', 'data-testid': 'origin-chain', text: range }),
          ),
          registers,
        ),
      );
    }
    if (a.slot !== undefined) {
      const slot = a.slot;
      const link = el('a', {
        href: '#tables',
        class: 'to-slot',
        'data-testid': 'to-slot',
        'data-slot': slot,
        'aria-label': `texture slot ${slot}: show its table and directory in the Tables view`,
        text: `slot ${slot}`,
      });
      link.addEventListener('click', (e) => {
        e.preventDefault();
        toSlot(slot);
      });
      box.append(link);
    }
    item.append(box);
    annotated++;
  }
  return annotated;
}
