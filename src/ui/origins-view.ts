/**
 * The Program view's descriptor origins (issue 7): beside each instruction that reads a
 * descriptor, where each of its register ranges came from (user data, a fixed load, a table
 * selection through a waterfall, constants), from the tracer (src/tracer, D012) through the
 * tables report. Hovering a range shows its provenance chain (the `title`); opening it (click,
 * Enter) lists the chain in the page, so a keyboard reaches it too. A selecting access links to
 * its texture slot, which the Tables view then highlights.
 */
import { el } from './dom.ts';
import type { AccessOrigins, DescriptorOrigin } from './worker-api.ts';

/** The chain of one descriptor as lines: its classification, then each register's provenance and steps. */
export function originChain(d: DescriptorOrigin): string[] {
  const lines = [`${d.kind} ${d.registers}: ${d.classification}`];
  for (const w of d.words) {
    lines.push(`${w.register} = ${w.provenance}`);
    for (const step of w.chain) lines.push(`    ${step}`);
  }
  return lines;
}

/** The short form shown on the instruction's line: `T# s[32:39] ← table selection, waterfall`. */
export const originSummary = (d: DescriptorOrigin): string => `${d.kind} ${d.registers} ← ${d.sources.join(', ')}`;

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
      const chain = originChain(d).join('\n');
      const details = el(
        'details',
        { class: 'origin', 'data-testid': 'origin', 'data-kind': d.kind },
        el('summary', {
          title: chain,
          'aria-label': `${originSummary(d)}; ${d.classification}. Open for the chain of each register.`,
          text: originSummary(d),
        }),
        el('pre', { class: 'origin-chain', 'data-testid': 'origin-chain', text: chain }),
      );
      box.append(details);
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
