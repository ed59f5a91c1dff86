/**
 * The Program view: the capture's code disassembled from its entry, with addresses and branch
 * labels. It returns the rendered listing so that links (to the WGSL) can be added once known.
 */
import { el } from './dom.ts';
import { renderListing, type RenderedListing } from './listing-view.ts';
import type { CaptureSummary, ProgramView } from './worker-api.ts';

export function renderProgramView(
  panel: HTMLElement,
  summary: CaptureSummary | undefined,
  program: ProgramView | undefined,
): RenderedListing | undefined {
  const heading = el('h2', { text: 'Program' });
  if (!summary || !program) {
    panel.replaceChildren(heading, el('p', { text: 'no capture is open' }));
    return undefined;
  }
  if (!program.ok) {
    panel.replaceChildren(heading, el('p', { class: 'problem', role: 'note', text: program.reason }));
    return undefined;
  }
  const labels = program.listing.lines.filter((l) => l.label).length;
  const facts = el('p', {
    class: 'facts-line',
    'data-testid': 'program-facts',
    text:
      `${summary.mcpu} (${summary.gen}), wave${program.wave64 ? 64 : 32}; entry at 0x${program.entry.toString(16)}, ` +
      `${program.bytes} bytes of code from there; ${program.listing.decoded} instructions decoded, ` +
      `${program.listing.errors} undecodable dwords, ${labels} branch label${labels === 1 ? '' : 's'} ` +
      `(${program.decodeMs.toFixed(1)} ms). Addresses are byte offsets from the entry.`,
  });
  const rendered = renderListing(program.listing, program.mcpu);
  panel.replaceChildren(heading, facts, rendered.list);
  return rendered;
}
