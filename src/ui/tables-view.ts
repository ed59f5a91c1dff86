/**
 * The Tables and directory view: what the capture says about itself (target, dispatch,
 * provenance, expectation), its memory ranges with their origins, and the descriptors it
 * names, decoded by src/host/descriptors; then, for each texture slot the program selects
 * images through (D983, found by src/tracer), its table's records (record-table.ts,
 * virtualised and filterable) and its descriptor directory (src/host/directory, D013) as a
 * grid of slots (directory-grid.ts). A slot opens to its descriptor's decoded fields, its
 * image's every level and slice, its sampler, and the lanes that selected it in the last
 * interpreter run; the escapes of that run are listed with their lanes and words, and those of
 * the last WebGPU run (the lanes whose directory search the module recorded as missing).
 */
import { definitions, el, hex32, table } from './dom.ts';
import { DirectoryGrid } from './directory-grid.ts';
import { RecordTable } from './record-table.ts';
import { GPU_RUN_EVENT, type GpuRunEvent } from './run-view.ts';
import type {
  CaptureSummary,
  DescriptorSummary,
  DirectorySlotDetail,
  EscapesReport,
  GpuEscapes,
  GpuRunReport,
  NamedError,
  Outcome,
  SlotTable,
  TablesReport,
  TableRefusal,
  Thumbnail,
} from './worker-api.ts';

/** Past this many, the descriptors the capture names fold into one disclosure. */
const FOLD_DESCRIPTORS_OVER = 24;
const CUBE_FACES = ['+x', '−x', '+y', '−y', '+z', '−z'];
const hex4 = (v: number): string => `0x${v.toString(16).padStart(4, '0')}`;

/** A descriptor the capture names; its fields are drawn when it is first opened (a table may name hundreds). */
function descriptorItem(d: DescriptorSummary): HTMLElement {
  const title = `${d.kind}${d.name ? ` '${d.name}'` : ''} at ${d.where}`;
  const item = el(
    'details',
    { class: 'descriptor', 'data-testid': 'descriptor' },
    el('summary', {}, title, el('span', { class: 'mono words-inline', text: `  ${d.words.map(hex32).join(' ')}` })),
  );
  item.addEventListener(
    'toggle',
    () =>
      item.append(
        d.fields
          ? table(
              ['field', 'value'],
              d.fields.map(([k, v]) => [k, v]),
              { class: 'mono-table' },
            )
          : el('p', { class: 'problem', text: `does not decode: ${d.error ?? 'unknown reason'}` }),
      ),
    { once: true },
  );
  return item;
}

const refusalText = (r: TableRefusal): string => `${r.code}: ${r.reason}`;

function thumbnailFigure(t: Thumbnail, cube: boolean): HTMLElement {
  const canvas = el('canvas', {
    width: String(t.width),
    height: String(t.height),
    class: 'thumb',
    style: `width: ${Math.max(48, Math.min(128, t.width * 8))}px`,
  });
  const ctx = canvas.getContext('2d');
  if (ctx) ctx.putImageData(new ImageData(new Uint8ClampedArray(t.rgba), t.width, t.height), 0, 0);
  const caption = `level ${t.level}, ${cube ? `face ${CUBE_FACES[t.slice % 6]}${t.slice >= 6 ? ` of cube ${Math.floor(t.slice / 6)}` : ''}` : `slice ${t.slice}`}: ${t.width}×${t.height}`;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', caption);
  return el('figure', { class: 'thumbnail', 'data-testid': 'thumbnail' }, canvas, el('figcaption', { text: caption }));
}

export class TablesView {
  private readonly slotsSection = el('section', { 'aria-labelledby': 'slots-heading', 'data-testid': 'texture-slots' });
  private readonly directory = el('section', { 'data-testid': 'directory', 'aria-labelledby': 'directory-heading' });
  private readonly escapesSection = el('section', { 'data-testid': 'escapes', 'aria-labelledby': 'escapes-heading' });
  private readonly gpuEscapesSection = el('section', {
    'data-testid': 'gpu-escapes',
    'aria-labelledby': 'gpu-escapes-heading',
  });
  /** Lanes in a wave of the open capture (a GPU escape names its invocation in the group). */
  private waveLanes = 32;
  /** The slot detail open in each texture slot's directory, to refresh after a run. */
  private readonly open = new Map<string, { index: number; panel: HTMLElement }>();
  private generation = 0;

  constructor(
    private readonly panel: HTMLElement,
    private readonly openSlot: (slot: string, index: number) => Promise<Outcome<DirectorySlotDetail>>,
    private readonly listEscapes: () => Promise<Outcome<EscapesReport>>,
  ) {
    this.render(undefined);
    // Each GPU run's start, failure and report come from the Run view (run-view.ts GPU_RUN_EVENT).
    panel.ownerDocument.addEventListener(GPU_RUN_EVENT, (e) => this.onGpuRun((e as CustomEvent<GpuRunEvent>).detail));
  }

  /** A capture opened (or none): the capture's own facts now, the tables when `setTables` comes. */
  render(s: CaptureSummary | undefined): void {
    this.generation++;
    this.open.clear();
    const heading = el('h2', { text: 'Tables and directory' });
    this.slotsSection.replaceChildren(el('h3', { id: 'slots-heading', text: 'Texture slots and their tables' }));
    this.directory.replaceChildren(
      el('h3', { id: 'directory-heading', text: 'Descriptor directory' }),
      el('p', {
        class: 'note',
        role: 'status',
        'data-testid': 'directory-status',
        text: s ? 'reading the tables…' : 'no capture is open',
      }),
    );
    this.escapesSection.replaceChildren();
    this.gpuEscapesSection.replaceChildren(
      el('h3', { id: 'gpu-escapes-heading', text: 'Escapes on WebGPU' }),
      el('p', { class: 'note', 'data-testid': 'gpu-escapes-status', text: 'not run on WebGPU yet' }),
    );
    if (!s) {
      this.panel.replaceChildren(heading, el('p', { text: 'no capture is open' }), this.directory);
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
    const items = s.descriptors.map(descriptorItem);
    const descriptors = !items.length
      ? el('p', { class: 'note', text: 'the capture names no descriptors' })
      : items.length > FOLD_DESCRIPTORS_OVER
        ? el('details', {}, el('summary', { text: `show all ${items.length}` }), el('div', {}, ...items))
        : el('div', {}, ...items);
    this.panel.replaceChildren(
      heading,
      el('section', { 'aria-labelledby': 'about-heading' }, el('h3', { id: 'about-heading', text: 'Capture' }), about),
      el(
        'section',
        { 'aria-labelledby': 'ranges-heading' },
        el('h3', { id: 'ranges-heading', text: `Memory ranges (${s.ranges.length})` }),
        el('div', { class: 'scroll ranges-scroll' }, ranges),
      ),
      el(
        'section',
        { 'aria-labelledby': 'descriptors-heading', 'data-testid': 'descriptors' },
        el('h3', { id: 'descriptors-heading', text: `Descriptors the capture names (${s.descriptors.length})` }),
        descriptors,
      ),
      this.slotsSection,
      this.directory,
      this.escapesSection,
      this.gpuEscapesSection,
    );
    this.waveLanes = s.wave64 ? 64 : 32;
  }

  failed(e: NamedError): void {
    this.directory.querySelector('[data-testid="directory-status"]')?.replaceWith(
      el('p', {
        class: 'problem',
        role: 'alert',
        'data-testid': 'directory-status',
        text: `${e.name}: ${e.message}`,
      }),
    );
  }

  /** Highlights a texture slot's table (a selecting access's link from the Program view) and brings it into view. */
  highlightSlot(slot: string): boolean {
    let found: HTMLElement | undefined;
    for (const section of this.slotsSection.querySelectorAll<HTMLElement>('[data-testid="slot-table"]')) {
      // The attribute is the one mark (style.css draws it; tests read it).
      if (section.dataset.slot === slot) {
        section.dataset.selected = 'true';
        found = section;
      } else delete section.dataset.selected;
    }
    if (!found) return false;
    found.scrollIntoView({ block: 'start' });
    const heading = found.querySelector<HTMLElement>('h4, h3');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
    return true;
  }

  setTables(r: TablesReport): void {
    const status = this.directory.querySelector('[data-testid="directory-status"]');
    const counts = `image accesses: ${r.accessCounts.bound} bound, ${r.accessCounts.selected} selected per lane, ${r.accessCounts.untraced} untraced`;
    if (!r.slots.length) {
      status?.replaceWith(
        el('p', { class: 'note', role: 'note', 'data-testid': 'directory-status', text: r.note ?? counts }),
      );
      this.slotsSection.append(el('p', { class: 'note', text: 'no texture slot: nothing is selected from a table' }));
      return;
    }
    status?.replaceWith(
      el('p', {
        class: 'note',
        'data-testid': 'directory-status',
        text: `${r.slots.length} texture slot${r.slots.length === 1 ? '' : 's'} (${counts}); read in ${r.ms.toFixed(0)} ms, with WebGPU's default limits and no device features`,
      }),
    );
    for (const slot of r.slots) {
      this.slotsSection.append(this.slotTable(slot));
      this.directory.append(this.slotDirectory(slot));
    }
    void this.refreshEscapes();
  }

  private slotTable(t: SlotTable): HTMLElement {
    const id = `slot-${t.slot}`;
    const head = el('h4', { id: `${id}-heading`, text: `Texture slot ${t.slot}` });
    const where = definitions([
      ['table', el('span', { class: 'mono', text: t.table })],
      ['sampler', el('span', { class: 'mono', text: t.sampler })],
      ['shape', t.shape],
      ['accesses', t.accesses.map(hex4).join(', ')],
    ]);
    const section = el(
      'section',
      { 'aria-labelledby': `${id}-heading`, 'data-testid': 'slot-table', 'data-slot': t.slot },
      head,
      where,
    );
    if (t.unread) {
      section.append(
        el('p', {
          class: 'problem',
          'data-testid': 'table-unread',
          text: `the table is not read: ${refusalText(t.unread)}`,
        }),
      );
      return section;
    }
    const leftOut = Object.entries(t.leftOut ?? {})
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    section.append(
      definitions([
        [
          'records',
          `${t.recordCount} at 0x${(t.address ?? 0).toString(16)}${t.recordsBeyondCap ? ` (${t.recordsBeyondCap} more beyond the 65536-record cap, not read)` : ''}: ${t.images?.length ?? 0} distinct images, ${t.emptyRecords} empty, left out: ${leftOut || 'none'}`,
        ],
        [
          'bounds',
          t.bounds?.ok
            ? `within (${t.bounds.texelBytes} texel bytes of base levels)`
            : `refused: ${t.bounds ? refusalText(t.bounds.refusal) : '?'}`,
        ],
        [
          'pages',
          t.pages?.ok ? t.pages.lines.join('; ') || 'none' : `refused: ${t.pages ? refusalText(t.pages.refusal) : '?'}`,
        ],
      ]),
      new RecordTable(t).element,
    );
    return section;
  }

  private slotDirectory(t: SlotTable): HTMLElement {
    const id = `dir-${t.slot}`;
    const section = el(
      'section',
      { 'aria-labelledby': `${id}-heading`, 'data-testid': 'slot-directory', 'data-slot': t.slot },
      el('h4', { id: `${id}-heading`, text: `Directory of texture slot ${t.slot}` }),
    );
    const d = t.directory;
    if (!d) {
      section.append(el('p', { class: 'note', text: 'no directory: the table was not read' }));
      return section;
    }
    if (!d.ok) {
      section.append(el('p', { class: 'problem', text: `the directory is refused: ${refusalText(d.refusal)}` }));
      return section;
    }
    const counts = [0, 1, 2, 3].map((k) => d.slots.filter((s) => s.distance === k).length);
    const detail = el(
      'div',
      { class: 'slot-detail', 'data-testid': 'slot-detail', 'aria-live': 'polite' },
      el('p', {
        class: 'note',
        text: 'open a slot (click it, or Enter on it) to see its descriptor, image, sampler and lanes',
      }),
    );
    const levels = new Map((t.images ?? []).map((im) => [im.place, im.levels]));
    const grid = new DirectoryGrid(
      d.slotCount,
      d.slots,
      (index) => void this.showSlot(t.slot, index, detail),
      (place) => levels.get(place) ?? 1,
    );
    section.append(
      el('p', {
        class: 'note',
        'data-testid': 'directory-facts',
        text: `${d.slotCount} slots${d.grewFrom.length ? ` (grown from ${d.grewFrom.join(', ')})` : ''}, ${d.slots.length} occupied; probe distances 0/1/2/3: ${counts.join(' / ')}`,
      }),
      el('div', { class: 'directory-layout' }, grid.element, detail),
    );
    return section;
  }

  private async showSlot(slot: string, index: number, panel: HTMLElement): Promise<void> {
    const generation = this.generation;
    this.open.set(slot, { index, panel });
    panel.replaceChildren(el('p', { class: 'note', text: `opening slot ${index}…` }));
    let r: Outcome<DirectorySlotDetail>;
    try {
      r = await this.openSlot(slot, index);
    } catch (e) {
      r = { ok: false, error: { name: 'Error', message: e instanceof Error ? e.message : String(e) } };
    }
    if (generation !== this.generation) return; // another capture opened meanwhile
    if (!r.ok) {
      panel.replaceChildren(el('p', { class: 'problem', role: 'alert', text: `${r.error.name}: ${r.error.message}` }));
      return;
    }
    const d = r.value;
    const im = d.image;
    const parts: Node[] = [
      el('h5', { text: `Slot ${d.index}: place ${d.place}`, 'data-testid': 'slot-title' }),
      el('p', { class: 'mono words-inline', text: d.words.map(hex32).join(' ') }),
    ];
    if (im)
      parts.push(
        el('p', {
          'data-testid': 'slot-image',
          text: `${im.typeName} ${im.format} ${im.width}×${im.height}${im.depth > 1 ? `×${im.depth}` : ''}, ${im.levels} level${im.levels === 1 ? '' : 's'}, ${im.slices} slice${im.slices === 1 ? '' : 's'}; level ${im.level} bound as ${im.textureFormat}; records ${im.records.join(', ')}`,
        }),
      );
    parts.push(el('h6', { text: 'Image (every level and slice)' }));
    if (d.thumbnails.length)
      parts.push(
        el(
          'div',
          { class: 'thumbnails', 'data-testid': 'thumbnails' },
          ...d.thumbnails.map((t) => thumbnailFigure(t, im?.shape === 'cube')),
        ),
      );
    if (d.thumbnailError) parts.push(el('p', { class: 'problem', text: `no thumbnail: ${d.thumbnailError}` }));
    parts.push(el('h6', { text: 'Descriptor (T#)' }));
    parts.push(
      d.fields
        ? table(
            ['field', 'value'],
            d.fields.map(([k, v]) => [k, v]),
            { class: 'mono-table', 'data-testid': 'slot-fields' },
          )
        : el('p', { class: 'problem', text: `does not decode: ${d.fieldsError}` }),
    );
    parts.push(el('h6', { text: 'Sampler (S#)' }));
    if (d.sampler)
      parts.push(
        el('p', { class: 'mono words-inline', text: d.sampler.words.map(hex32).join(' ') }),
        d.sampler.fields
          ? table(
              ['field', 'value'],
              d.sampler.fields.map(([k, v]) => [k, v]),
              {
                class: 'mono-table',
                'data-testid': 'slot-sampler',
              },
            )
          : el('p', { class: 'problem', text: `does not decode: ${d.sampler.error}` }),
      );
    else parts.push(el('p', { class: 'note', 'data-testid': 'slot-sampler', text: d.samplerNote ?? 'no sampler' }));
    parts.push(el('h6', { text: 'Lanes that selected it (last interpreter run)' }));
    const lanes = d.lanes;
    if (lanes.kind !== 'observed')
      parts.push(el('p', { class: 'note', 'data-testid': 'slot-lanes', text: lanes.reason }));
    else if (!lanes.selections.length)
      parts.push(
        el('p', {
          class: 'note',
          'data-testid': 'slot-lanes',
          'data-lanes': '0',
          text: `no lane selected this descriptor in the last interpreter run (${lanes.steps} instructions stepped)`,
        }),
      );
    else {
      const total = lanes.selections.reduce((n, s) => n + s.lanes.length, 0);
      parts.push(
        el(
          'ul',
          { 'data-testid': 'slot-lanes', 'data-lanes': String(total) },
          ...lanes.selections.map((s) =>
            el('li', {
              text: `group ${s.group}, wave ${s.wave}, at ${hex4(s.access)}: lane${s.lanes.length === 1 ? '' : 's'} ${s.lanes.join(', ')}`,
            }),
          ),
        ),
      );
    }
    panel.replaceChildren(...parts);
  }

  /** After an interpreter run: the open slots' lanes and the escapes are new. */
  async afterRun(): Promise<void> {
    for (const [slot, { index, panel }] of this.open) await this.showSlot(slot, index, panel);
    await this.refreshEscapes();
  }

  private async refreshEscapes(): Promise<void> {
    const generation = this.generation;
    let r: Outcome<EscapesReport>;
    try {
      r = await this.listEscapes();
    } catch (e) {
      r = { ok: false, error: { name: 'Error', message: e instanceof Error ? e.message : String(e) } };
    }
    if (generation !== this.generation) return;
    const heading = el('h3', { id: 'escapes-heading', text: 'Escapes' });
    if (!r.ok) {
      this.escapesSection.replaceChildren(
        heading,
        el('p', { class: 'problem', text: `${r.error.name}: ${r.error.message}` }),
      );
      return;
    }
    const e = r.value;
    if (e.kind !== 'observed') {
      this.escapesSection.replaceChildren(
        heading,
        el('p', { class: 'note', 'data-testid': 'escapes-status', text: e.reason }),
      );
      return;
    }
    this.escapesSection.replaceChildren(
      heading,
      e.escapes.length
        ? table(
            ['slot', 'group', 'wave', 'access', 'lanes', 'words'],
            e.escapes.map((x) => [
              x.slot,
              String(x.group),
              String(x.wave),
              hex4(x.access),
              x.lanes.join(', '),
              x.words.map(hex32).join(' '),
            ]),
            { class: 'mono-table', 'data-testid': 'escapes-table' },
          )
        : el('p', {
            class: 'note',
            'data-testid': 'escapes-status',
            text: 'none: every descriptor the lanes selected in the last interpreter run is in its directory',
          }),
    );
  }

  private onGpuRun(e: GpuRunEvent): void {
    if (e.kind === 'report') return this.showGpuEscapes(e.report);
    this.gpuEscapesSection.replaceChildren(
      el('h3', { id: 'gpu-escapes-heading', text: 'Escapes on WebGPU' }),
      el('p', {
        class: e.kind === 'failed' ? 'problem' : 'note',
        'data-testid': 'gpu-escapes-status',
        text:
          e.kind === 'failed'
            ? `the last WebGPU run failed: ${e.error.name}: ${e.error.message}`
            : 'running on WebGPU…',
      }),
    );
  }

  /** After a GPU run: the lanes whose directory search missed (the module's escapes), or why there are none to list. */
  showGpuEscapes(r: GpuRunReport): void {
    const heading = el('h3', { id: 'gpu-escapes-heading', text: 'Escapes on WebGPU' });
    const status = (text: string): HTMLElement => el('p', { class: 'note', 'data-testid': 'gpu-escapes-status', text });
    if (r.kind === 'gpu-error' || r.kind === 'no-webgpu-here') {
      this.gpuEscapesSection.replaceChildren(heading, status(`the last WebGPU run did not run: ${r.reason}`));
      return;
    }
    if (r.kind === 'refused' || r.kind === 'invalid') {
      if (!r.escapes) {
        this.gpuEscapesSection.replaceChildren(heading, status(`the last WebGPU run was ${r.kind}: ${r.reason}`));
        return;
      }
      const e = r.escapes;
      const listed = e.lanes.length < e.count ? `; the first ${e.lanes.length} the module recorded:` : ':';
      this.gpuEscapesSection.replaceChildren(
        heading,
        el('p', {
          'data-testid': 'gpu-escapes-count',
          text: `${e.count} lane access${e.count === 1 ? '' : 'es'} escaped (${e.bySlot
            .map((n, slot) => `slot ${slot}: ${n}`)
            .join(', ')}), so the result was refused${listed}`,
        }),
        table(['slot', 'group', 'wave', 'lane', 'instruction at', 'words'], gpuEscapeRows(e, this.waveLanes), {
          class: 'mono-table',
          'data-testid': 'gpu-escapes-table',
        }),
      );
      return;
    }
    this.gpuEscapesSection.replaceChildren(
      heading,
      status(`none: every lane of the last WebGPU run (${r.kind}) found the descriptor it selected in its directory`),
    );
  }
}

/** A GPU run's recorded escapes as table rows: slot, group, wave and lane (from the invocation), address, words. */
export function gpuEscapeRows(e: GpuEscapes, waveLanes: number): string[][] {
  return e.lanes.map((x) => [
    String(x.slot),
    x.group.join(', '),
    String(Math.floor(x.invocation / waveLanes)),
    String(x.invocation % waveLanes),
    hex32(x.address),
    x.words.map(hex32).join(' '),
  ]);
}
