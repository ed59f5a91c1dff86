/**
 * A listing (listing-core.ts) as an ordered list: address, the instruction's dwords, its
 * llvm-mc text with branch labels, or the DecodeError for an undecodable dword. Runs of the
 * same instruction (s_code_end padding) show once, then how many more; lines after the
 * program's s_endpgm are marked as such in words, not only by their colour.
 */
import { el } from './dom.ts';
import { hex32, type Listing, type ListingLine } from './listing-core.ts';

/** Runs of identical instructions longer than this are collapsed to their first line. */
const COLLAPSE_RUNS_OVER = 3;

export interface RenderedListing {
  readonly list: HTMLOListElement;
  /** The list item of each instruction, by byte offset. */
  readonly items: ReadonlyMap<number, HTMLLIElement>;
}

export function renderListing(listing: Listing, mcpu: string, testid = 'listing'): RenderedListing {
  const items = new Map<number, HTMLLIElement>();
  const list = el('ol', {
    class: 'listing',
    'data-testid': testid,
    'data-decoded': String(listing.decoded),
    'data-errors': String(listing.errors),
    'data-mcpu': mcpu,
    'aria-label': 'disassembly',
  });
  const addrWidth = Math.max(4, ((listing.lines.at(-1)?.offset ?? 0) >>> 0).toString(16).length);
  const addr = (offset: number): string => offset.toString(16).padStart(addrWidth, '0');
  const same = (a: ListingLine, b: ListingLine): boolean =>
    a.text === b.text && a.error === undefined && b.error === undefined && a.words.join() === b.words.join();
  const lines = listing.lines;
  let endMarked = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.afterEnd && !endMarked) {
      endMarked = true;
      list.append(
        el(
          'li',
          { class: 'line note', 'data-testid': 'program-end' },
          el('span', { class: 'addr' }),
          el('span', { class: 'words' }),
          el('span', { class: 'text', text: '; end of program: what follows is padding or data' }),
        ),
      );
    }
    if (line.label)
      list.append(
        el(
          'li',
          { class: 'line label', 'data-testid': 'label' },
          el('span', { class: 'addr' }),
          el('span', { class: 'words' }),
          el('span', { class: 'text', text: `${line.label}:` }),
        ),
      );
    const item = el(
      'li',
      {
        class: `line ${line.error ? 'err' : 'ok'}${line.afterEnd ? ' after-end' : ''}`,
        'data-testid': 'instruction',
        'data-offset': String(line.offset),
      },
      el('span', { class: 'addr', text: addr(line.offset) }),
      el('span', { class: 'words', text: line.words.map(hex32).join(' ') }),
      line.error
        ? el('span', { class: 'error', text: `cannot decode: ${line.error}` })
        : el('span', { class: 'text', text: line.text ?? '' }),
    );
    items.set(line.offset, item);
    list.append(item);
    let j = i + 1;
    while (j < lines.length && same(line, lines[j])) j++;
    if (j - i > COLLAPSE_RUNS_OVER) {
      const last = lines[j - 1];
      list.append(
        el(
          'li',
          { class: 'line repeat', 'data-testid': 'repeat', 'data-count': String(j - i - 1) },
          el('span', { class: 'addr', text: '…' }),
          el('span', { class: 'words' }),
          el('span', { class: 'text', text: `${j - i - 1} more, to ${addr(last.offset)}` }),
        ),
      );
      i = j - 1;
    }
  }
  if (listing.trailingBytes)
    list.append(
      el('li', { class: 'line err' }, el('span', { class: 'error', text: `${listing.trailingBytes} trailing bytes` })),
    );
  return { list, items };
}
