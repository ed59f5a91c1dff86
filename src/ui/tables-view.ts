/**
 * The Tables and directory view: what the capture says about itself (target, dispatch,
 * provenance, expectation), its memory ranges with their origins, and the descriptors it
 * knows of, decoded by src/host/descriptors. The descriptor directory (every slot of every
 * descriptor table the program can reach, from src/host/directory) has its place here; until
 * that layer is connected it says so and lists nothing.
 */
import { definitions, el, hex32, table } from './dom.ts';
import type { CaptureSummary, DescriptorSummary } from './worker-api.ts';

/** The directory's columns, one row (data-testid `directory-slot`) per slot once src/host/directory is connected. */
const DIRECTORY_COLUMNS = ['slot', 'table', 'address', 'kind', 'words', 'decoded', 'reached from'];

function descriptorItem(d: DescriptorSummary): HTMLElement {
  const title = `${d.kind}${d.name ? ` '${d.name}'` : ''} at ${d.where}`;
  return el(
    'details',
    { class: 'descriptor', 'data-testid': 'descriptor' },
    el('summary', {}, title, el('span', { class: 'mono words-inline', text: `  ${d.words.map(hex32).join(' ')}` })),
    d.fields
      ? table(
          ['field', 'value'],
          d.fields.map(([k, v]) => [k, v]),
          { class: 'mono-table' },
        )
      : el('p', { class: 'problem', text: `does not decode: ${d.error ?? 'unknown reason'}` }),
  );
}

export function renderTablesView(panel: HTMLElement, s: CaptureSummary | undefined): void {
  const heading = el('h2', { text: 'Tables and directory' });
  const directory = el(
    'section',
    { 'data-testid': 'directory', 'aria-labelledby': 'directory-heading' },
    el('h3', { id: 'directory-heading', text: 'Descriptor directory' }),
    el('p', {
      class: 'note',
      role: 'note',
      'data-testid': 'directory-status',
      text:
        'The descriptor directory (src/host/directory) is not connected to the app yet, so no slots are listed. ' +
        'It will list every slot of every descriptor table the program can reach, run-time-selected ones included.',
    }),
    el(
      'table',
      { class: 'mono-table', 'aria-label': 'descriptor directory slots' },
      el('thead', {}, el('tr', {}, ...DIRECTORY_COLUMNS.map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody'),
    ),
  );
  if (!s) {
    panel.replaceChildren(heading, el('p', { text: 'no capture is open' }), directory);
    return;
  }
  const expected =
    'unavailable' in s.expected
      ? `unavailable: ${s.expected.unavailable}`
      : `from ${s.expected.source}: ${s.expected.ranges.map((r) => `${r.address} (${r.size} bytes, ${r.compare})`).join('; ') || 'no memory ranges'}${s.expected.registers ? '; final registers' : ''}`;
  const about = definitions([
    ['file', `${s.name}, ${s.fileBytes} bytes (read and checked in ${s.readMs.toFixed(1)} ms)`],
    ['target', `${s.mcpu} (${s.gen}), wave${s.wave64 ? 64 : 32}`],
    ['dispatch', el('span', {}, `${s.dispatchKind}: `, s.dispatch.join('; '))],
    ...(s.dispatchError ? [['dispatch problem', s.dispatchError] as [string, string]] : []),
    ['expected', expected],
    ['recorded by', s.recorder],
    ['notes', s.notes || '—'],
    ['redacted', s.redacted ? 'yes: guest data was removed, only the code remains' : 'no'],
  ]);
  const ranges = table(
    ['address', 'size', 'access', 'origin', 'bytes read', 'bytes in the capture'],
    s.ranges.map((r) => [
      r.address,
      String(r.size),
      r.access,
      el('span', {}, el('strong', { text: r.origin }), `: ${r.detail}`),
      r.readBytes,
      r.unavailable ? `no: ${r.unavailable}` : 'yes',
    ]),
    { class: 'mono-table', 'data-testid': 'memory-ranges', 'aria-label': 'memory ranges' },
  );
  panel.replaceChildren(
    heading,
    el('section', { 'aria-labelledby': 'about-heading' }, el('h3', { id: 'about-heading', text: 'Capture' }), about),
    el(
      'section',
      { 'aria-labelledby': 'ranges-heading' },
      el('h3', { id: 'ranges-heading', text: `Memory ranges (${s.ranges.length})` }),
      ranges,
    ),
    el(
      'section',
      { 'aria-labelledby': 'descriptors-heading', 'data-testid': 'descriptors' },
      el('h3', { id: 'descriptors-heading', text: `Descriptors the capture names (${s.descriptors.length})` }),
      s.descriptors.length
        ? el('div', {}, ...s.descriptors.map(descriptorItem))
        : el('p', { class: 'note', text: 'the capture names no descriptors' }),
    ),
    directory,
  );
}
