/**
 * The Modules view: the WGSL module the translator (src/translator) makes of the capture,
 * highlighted (wgsl-highlight.ts), each translation block's `case` linked back to the
 * instruction it starts at; and the SPIR-V panel, which says by name why it has no text. A
 * refusal shows its reason. Links from the Program view land on a block's line here
 * (`showBlock`): the translator marks blocks with their guest address, not instructions.
 */
import { el } from './dom.ts';
import { wgslTokens } from './wgsl-highlight.ts';
import type { ModulesStatus, NamedError, WgslBlock } from './worker-api.ts';

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

/** The WGSL text as numbered, highlighted lines; block lines carry a link to their first instruction. */
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
  const list = el('ol', { class: 'code wgsl', 'data-testid': 'wgsl', 'aria-label': 'WGSL module' });
  wgsl.split('\n').forEach((text, i) => {
    const item = el('li', { id: wgslLineId(i), class: 'code-line' });
    const code = el('code');
    for (const t of wgslTokens(text))
      code.append(
        t.kind === 'plain' || t.kind === 'ident' ? t.text : el('span', { class: `tok-${t.kind}`, text: t.text }),
      );
    item.append(code);
    const mark = byLine.get(i);
    if (mark) {
      const { block, finish } = mark;
      item.dataset.block = String(block.id);
      item.tabIndex = -1; // focusable by a link from the Program view, not in the Tab order
      const link = el('a', {
        href: '#program',
        class: 'back-link',
        'data-testid': 'wgsl-to-program',
        'data-offset': String(block.offset),
        'aria-label': `${finish ? 'finish of ' : ''}block ${block.id}: show its first instruction, at ${hexOffset(block.offset)}, in the Program view`,
        text: `${finish ? 'finish of ' : ''}block ${block.id} ← ${hexOffset(block.offset)}${block.instructions.length ? ` (${block.instructions.length} instruction${block.instructions.length === 1 ? '' : 's'})` : ''}`,
      });
      link.addEventListener('click', (e) => {
        e.preventDefault();
        toInstruction(block.offset);
      });
      item.append(link);
    }
    list.append(item);
  });
  return list;
}

export class ModulesView {
  private list: HTMLOListElement | undefined;
  private highlighted: HTMLElement | undefined;

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
      el('p', {
        class: 'note',
        role: 'note',
        'data-testid': 'spirv-status',
        'data-status': status.spirv.kind,
        text: status.spirv.reason,
      }),
    );
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
            `${lines} lines, ${status.blocks.length} translation block${status.blocks.length === 1 ? '' : 's'} ` +
            `(translated in ${status.ms.toFixed(1)} ms for WebGPU's default limits). Links between instructions and ` +
            `WGSL are per block: the translator comments each block's case with its guest address, not each instruction` +
            `${linked < status.blocks.length ? `; ${status.blocks.length - linked} block${status.blocks.length - linked === 1 ? '' : 's'} not found in the text` : ''}.`,
        }),
        el('div', { class: 'scroll code-scroll', tabindex: '0', 'aria-label': 'WGSL module text' }, this.list),
      ),
      spirv,
    );
  }

  failed(e: NamedError): void {
    this.render(undefined);
    this.panel.append(
      el('p', { class: 'problem', role: 'note', 'data-testid': 'modules-error', text: `${e.name}: ${e.message}` }),
    );
  }

  /** Scrolls to a block's case and focuses it; false when the view shows no such block. */
  showBlock(block: WgslBlock): boolean {
    if (!this.list || block.line === null) return false;
    const item = this.list.querySelector<HTMLElement>(`#${wgslLineId(block.line)}`);
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
 * Adds to each instruction of the Program view a link to the WGSL block it runs in (the block
 * that lists it among its instructions). Instructions no block runs (after s_endpgm,
 * unreachable) get none.
 */
export function linkInstructionsToWgsl(
  items: ReadonlyMap<number, HTMLLIElement>,
  blocks: readonly WgslBlock[],
  toBlock: (block: WgslBlock, from: number) => void,
): number {
  let linked = 0;
  for (const item of items.values()) item.querySelector('.to-wgsl')?.remove();
  for (const b of blocks) {
    if (b.line === null) continue;
    for (const offset of b.instructions) {
      const item = items.get(offset);
      if (!item || item.querySelector('.to-wgsl')) continue;
      const link = el('a', {
        href: '#modules',
        class: 'to-wgsl',
        'data-testid': 'to-wgsl',
        'data-block': String(b.id),
        'aria-label': `the WGSL of the instruction at ${hexOffset(offset)}: block ${b.id}`,
        text: `→ WGSL block ${b.id}`,
      });
      link.addEventListener('click', (e) => {
        e.preventDefault();
        toBlock(b, offset);
      });
      item.append(link);
      linked++;
    }
  }
  return linked;
}
