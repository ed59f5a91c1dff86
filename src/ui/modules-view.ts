/**
 * The Modules view: the WGSL module the translator (src/translator) makes of the capture,
 * highlighted (wgsl-highlight.ts), each translation block's `case` linked back to the
 * instruction it starts at and each instruction's marker (the translator's comment before its
 * statements) back to that instruction; and the SPIR-V panel: the disassembly of the SPIR-V
 * read from that WGSL (D016), highlighted (spirv-highlight.ts), or why there is none; it is asked
 * for when the view is first shown (D021), so the tables do not wait for it. A refusal
 * shows its reason. Links from the Program view land on an instruction's marker here
 * (`showBlock`), or on its block's `case` where the text has no marker for it.
 */
import { el } from './dom.ts';
import { spirvTokens } from './spirv-highlight.ts';
import { wgslTokens } from './wgsl-highlight.ts';
import type { ModulesStatus, NamedError, SpirvStatus, WgslBlock } from './worker-api.ts';

function modulePanel(id: string, title: string, ...body: Node[]): HTMLElement {
  return el(
    'section',
    { class: 'module', 'aria-labelledby': `${id}-heading`, 'data-testid': id },
    el('h3', { id: `${id}-heading`, text: title }),
    ...body,
  );
}

export const wgslLineId = (line: number): string => `wgsl-line-${line + 1}`;

const hexOffset = (offset: number): string => `0x${offset.toString(16).padStart(4, '0')}`;
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A line of the WGSL text a link lands on: an instruction's marker or a block's `case` (0-based; null: none). */
export interface WgslTarget {
  readonly line: number | null;
}

/** The instructions whose markers the WGSL text shows, by 0-based line: their offset and block. */
export function markerLines(blocks: readonly WgslBlock[]): Map<number, { offset: number; block: number }> {
  const byLine = new Map<number, { offset: number; block: number }>();
  for (const b of blocks)
    b.instructions.forEach((offset, i) => {
      const line = b.instructionLines[i];
      if (line !== null && line !== undefined && !byLine.has(line)) byLine.set(line, { offset, block: b.id });
    });
  return byLine;
}

/** A highlighted line of code: tokens of a kind other than `plain` (and `ident`) get their class. */
function codeLine(tokens: readonly { kind: string; text: string }[]): HTMLElement {
  const code = el('code');
  for (const t of tokens)
    code.append(
      t.kind === 'plain' || t.kind === 'ident' ? t.text : el('span', { class: `tok-${t.kind}`, text: t.text }),
    );
  return code;
}

/** A link from a WGSL line to an instruction of the Program view. */
function backLink(offset: number, label: string, text: string, toInstruction: (offset: number) => void): HTMLElement {
  const link = el('a', {
    href: '#program',
    class: 'back-link',
    'data-testid': 'wgsl-to-program',
    'data-offset': String(offset),
    'aria-label': label,
    text,
  });
  link.addEventListener('click', (e) => {
    e.preventDefault();
    toInstruction(offset);
  });
  return link;
}

/**
 * The WGSL text as numbered, highlighted lines; block lines carry a link to their first
 * instruction, instruction markers a link to their instruction.
 */
function wgslListing(
  wgsl: string,
  blocks: readonly WgslBlock[],
  toInstruction: (offset: number) => void,
): HTMLOListElement {
  const byLine = new Map<number, { block: WgslBlock; finish: boolean }>();
  for (const b of blocks) {
    if (b.line !== null) byLine.set(b.line, { block: b, finish: false });
    if (b.finishLine !== null) byLine.set(b.finishLine, { block: b, finish: true });
  }
  const markers = markerLines(blocks);
  const list = el('ol', { class: 'code wgsl', 'data-testid': 'wgsl', 'aria-label': 'WGSL module' });
  wgsl.split('\n').forEach((text, i) => {
    const item = el('li', { id: wgslLineId(i), class: 'code-line' });
    item.append(codeLine(wgslTokens(text)));
    const mark = byLine.get(i);
    const marker = markers.get(i);
    if (mark || marker) item.tabIndex = -1; // focusable by a link from the Program view, not in the Tab order
    if (mark) {
      const { block, finish } = mark;
      item.dataset.block = String(block.id);
      item.append(
        backLink(
          block.offset,
          `${finish ? 'finish of ' : ''}block ${block.id}: show its first instruction, at ${hexOffset(block.offset)}, in the Program view`,
          `${finish ? 'finish of ' : ''}block ${block.id} ← ${hexOffset(block.offset)}${block.instructions.length ? ` (${plural(block.instructions.length, 'instruction')})` : ''}`,
          toInstruction,
        ),
      );
    } else if (marker) {
      // The marker's own text names the instruction: `// 0x10000014 s_bfe_u32`.
      const name = text.trim().split(/\s+/)[2] ?? 'instruction';
      item.classList.add('marker');
      item.dataset.offset = String(marker.offset);
      item.append(
        backLink(
          marker.offset,
          `${name} at ${hexOffset(marker.offset)} (block ${marker.block}): show it in the Program view`,
          `← ${hexOffset(marker.offset)}`,
          toInstruction,
        ),
      );
    }
    list.append(item);
  });
  return list;
}

/** What the SPIR-V panel says before its text comes: not asked for yet, or being made (with the worker's progress). */
function spirvNote(status: 'spirv-waiting' | 'spirv-reading', text: string): HTMLElement {
  return el('p', { class: 'note', role: 'status', 'data-testid': 'spirv-status', 'data-status': status, text });
}

/** The SPIR-V panel's body: the disassembly as numbered, highlighted lines, or why there is none. */
function spirvBody(spirv: SpirvStatus): Node[] {
  if (spirv.kind !== 'spirv')
    return [
      el('p', {
        class: spirv.kind === 'spirv-not-translated' ? 'note' : 'problem',
        role: 'note',
        'data-testid': 'spirv-status',
        'data-status': spirv.kind,
        text:
          spirv.kind === 'spirv-unsupported-wgsl'
            ? `${spirv.reason} (WGSL line ${spirv.line + 1})`
            : spirv.kind === 'spirv-tools-failed'
              ? `no SPIR-V text: ${spirv.reason}`
              : spirv.reason,
      }),
    ];
  const lines = spirv.text.replace(/\n$/, '').split('\n');
  const list = el('ol', { class: 'code spirv', 'data-testid': 'spirv', 'aria-label': 'SPIR-V module, disassembled' });
  for (const text of lines) list.append(el('li', { class: 'code-line' }, codeLine(spirvTokens(text))));
  return [
    el('p', {
      class: 'facts-line',
      'data-testid': 'spirv-status',
      'data-status': 'spirv',
      text:
        `${plural(lines.length, 'line')}: SPIR-V 1.5 for Vulkan 1.2 of ${spirv.bytes} bytes, read from the WGSL ` +
        `(src/translator/spirv/wgsl-reader, D016) in ${spirv.readMs.toFixed(1)} ms and disassembled by the ` +
        `spirv-tools package's WebAssembly in ${spirv.disassembleMs.toFixed(1)} ms` +
        `${spirv.loadMs >= 0.05 ? ` (loading it took ${spirv.loadMs.toFixed(1)} ms)` : ''}.`,
    }),
    el('div', { class: 'scroll code-scroll', tabindex: '0', 'aria-label': 'SPIR-V module text' }, list),
  ];
}

export class ModulesView {
  private list: HTMLOListElement | undefined;
  private highlighted: HTMLElement | undefined;
  /** The SPIR-V panel of the module shown; its text is asked for apart (`spirvReading`, `showSpirv`). */
  private spirvPanel: HTMLElement | undefined;

  constructor(
    private readonly panel: HTMLElement,
    private readonly toInstruction: (offset: number) => void,
  ) {
    this.render(undefined);
  }

  /** Nothing yet (no capture, or the translation is running). */
  render(status: ModulesStatus | undefined, busy = false): void {
    this.list = undefined;
    this.highlighted = undefined;
    this.spirvPanel = undefined;
    const heading = el('h2', { text: 'Modules' });
    if (!status) {
      this.panel.replaceChildren(
        heading,
        el('p', { 'data-testid': 'modules-status', text: busy ? 'translating…' : 'no capture is open' }),
      );
      return;
    }
    const spirv = modulePanel(
      'module-spirv',
      'SPIR-V (disassembled)',
      spirvNote('spirv-waiting', 'the SPIR-V text is made when this view is first shown'),
    );
    this.spirvPanel = spirv;
    if (status.kind !== 'modules') {
      this.panel.replaceChildren(
        heading,
        modulePanel(
          'module-wgsl',
          'WGSL',
          el('p', {
            class: 'problem',
            role: 'note',
            'data-testid': 'modules-status',
            'data-status': status.kind,
            text:
              status.kind === 'refused'
                ? `the translator refused: ${status.reason}`
                : `the capture does not describe a dispatch: ${status.reason}`,
          }),
        ),
        spirv,
      );
      return;
    }
    const linked = status.blocks.filter((b) => b.line !== null).length;
    const instructions = status.blocks.reduce((n, b) => n + b.instructions.length, 0);
    const marked = status.blocks.reduce((n, b) => n + b.instructionLines.filter((l) => l !== null).length, 0);
    const lines = status.wgsl.split('\n').length;
    this.list = wgslListing(status.wgsl, status.blocks, this.toInstruction);
    this.panel.replaceChildren(
      heading,
      modulePanel(
        'module-wgsl',
        'WGSL',
        el('p', {
          class: 'facts-line',
          'data-testid': 'modules-status',
          'data-status': 'modules',
          text:
            `${lines} lines, ${plural(status.blocks.length, 'translation block')} ` +
            `(translated in ${status.ms.toFixed(1)} ms for WebGPU's default limits). Each instruction links to its ` +
            `marker, the comment the translator writes before its statements (its register writes are assigned at ` +
            `the segment's end, so an instruction can have no statement of its own); each block's case to its first instruction` +
            `${marked < instructions ? `; ${plural(instructions - marked, 'instruction')} without a marker link to their block` : ''}` +
            `${linked < status.blocks.length ? `; ${plural(status.blocks.length - linked, 'block')} not found in the text` : ''}.`,
        }),
        el('div', { class: 'scroll code-scroll', tabindex: '0', 'aria-label': 'WGSL module text' }, this.list),
      ),
      spirv,
    );
  }

  /** The SPIR-V is being made: the worker's latest progress line and the seconds so far. */
  spirvReading(progress: string): void {
    this.setSpirvBody(spirvNote('spirv-reading', progress));
  }

  /** The SPIR-V text, why there is none, or why the worker could not answer; false when no module is shown. */
  showSpirv(r: SpirvStatus | NamedError): boolean {
    if ('kind' in r) return this.setSpirvBody(...spirvBody(r));
    return this.setSpirvBody(
      el('p', {
        class: 'problem',
        role: 'alert',
        'data-testid': 'spirv-status',
        'data-status': 'spirv-failed',
        text: `no SPIR-V text: ${r.name}: ${r.message} (showing this view again asks again)`,
      }),
    );
  }

  private setSpirvBody(...body: Node[]): boolean {
    const panel = this.spirvPanel;
    if (!panel) return false;
    panel.replaceChildren(panel.firstElementChild!, ...body);
    return true;
  }

  failed(e: NamedError): void {
    this.render(undefined);
    this.panel.append(
      el('p', { class: 'problem', role: 'note', 'data-testid': 'modules-error', text: `${e.name}: ${e.message}` }),
    );
  }

  /** Scrolls to a WGSL line (an instruction's marker, a block's case) and focuses it; false when the view has no such line. */
  showBlock(target: WgslTarget): boolean {
    if (!this.list || target.line === null) return false;
    const item = this.list.querySelector<HTMLElement>(`#${wgslLineId(target.line)}`);
    if (!item) return false;
    this.highlighted?.classList.remove('target');
    item.classList.add('target');
    this.highlighted = item;
    item.scrollIntoView({ block: 'center' });
    item.focus({ preventScroll: true });
    return true;
  }
}

/**
 * Adds to each instruction of the Program view a link to its WGSL: its marker line, or where
 * the text has none for it, the case of the block it runs in (the block that lists it among
 * its instructions). Instructions no block runs (after s_endpgm, unreachable) get none.
 */
export function linkInstructionsToWgsl(
  items: ReadonlyMap<number, HTMLLIElement>,
  blocks: readonly WgslBlock[],
  toLine: (target: WgslTarget, from: number) => void,
): number {
  let linked = 0;
  for (const item of items.values()) item.querySelector('.to-wgsl')?.remove();
  for (const b of blocks) {
    b.instructions.forEach((offset, i) => {
      const item = items.get(offset);
      const marker = b.instructionLines[i] ?? null;
      const line = marker ?? b.line;
      if (!item || line === null || item.querySelector('.to-wgsl')) return;
      const link = el('a', {
        href: '#modules',
        class: 'to-wgsl',
        'data-testid': 'to-wgsl',
        'data-block': String(b.id),
        'data-line': String(line + 1),
        'aria-label':
          marker !== null
            ? `the WGSL of the instruction at ${hexOffset(offset)}: line ${line + 1}, in block ${b.id}`
            : `the WGSL of the instruction at ${hexOffset(offset)}: block ${b.id}, line ${line + 1}`,
        text: marker !== null ? `→ WGSL ${line + 1}` : `→ WGSL block ${b.id}`,
      });
      link.addEventListener('click', (e) => {
        e.preventDefault();
        toLine({ line }, offset);
      });
      item.append(link);
      linked++;
    });
  }
  return linked;
}
