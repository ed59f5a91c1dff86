/**
 * The Run view: the capture run on the reference interpreter, its verdict, timings and the
 * difference from the expectation (the first mismatches, and each expected range as a table
 * with the differing elements marked); below it the WebGPU adapter (gpu-panel.ts).
 */
import { definitions, el, table } from './dom.ts';
import { renderBufferTable } from './buffer-table.ts';
import type { GpuPanel } from './gpu-panel.ts';
import type { CaptureSummary, NamedError, RunReport } from './worker-api.ts';

const VERDICT_TEXT: Readonly<Record<RunReport['kind'], string>> = {
  match: 'memory holds what the capture expects',
  mismatch: 'memory differs from what the capture expects',
  refused: 'the interpreter will not run this capture',
  invalid: 'the capture cannot describe a dispatch',
};

export class RunView {
  private readonly runButton = el('button', {
    type: 'button',
    'data-testid': 'run-interpreter',
    text: 'Run on the interpreter',
  });
  private readonly verdict = el('p', {
    class: 'verdict',
    'data-testid': 'verdict',
    'aria-live': 'polite',
    text: 'not run yet',
  });
  private readonly details = el('div');

  constructor(panel: HTMLElement, gpu: GpuPanel, run: () => void) {
    this.runButton.addEventListener('click', run);
    panel.replaceChildren(
      el('h2', { text: 'Run' }),
      el(
        'section',
        { 'aria-labelledby': 'interp-heading' },
        el('h3', { id: 'interp-heading', text: 'Reference interpreter' }),
        el('div', { class: 'controls' }, this.runButton),
        this.verdict,
        this.details,
      ),
      gpu.element,
    );
  }

  /** A capture opened: nothing has run on it yet. */
  reset(summary: CaptureSummary): void {
    this.setVerdict(undefined, 'not run yet');
    const expected =
      'unavailable' in summary.expected
        ? `no expected result (${summary.expected.unavailable}): a run can only be refused`
        : `expected: ${summary.expected.ranges.length} range${summary.expected.ranges.length === 1 ? '' : 's'}${summary.expected.registers ? ' and final registers' : ''}, from ${summary.expected.source}`;
    this.details.replaceChildren(el('p', { class: 'note', text: expected }));
  }

  setBusy(busy: boolean): void {
    this.runButton.disabled = busy;
  }

  running(): void {
    this.setVerdict(undefined, 'running…');
    this.details.replaceChildren();
  }

  failed(e: NamedError): void {
    this.setVerdict(undefined, 'not run');
    this.details.replaceChildren(el('p', { class: 'problem', text: `${e.name}: ${e.message}` }));
  }

  show(r: RunReport): void {
    this.setVerdict(r.kind, `${r.kind}: ${VERDICT_TEXT[r.kind]}`);
    if (!('steps' in r)) {
      this.details.replaceChildren(
        el('p', { class: 'problem', 'data-testid': 'run-reason', text: r.reason }),
        el('p', { class: 'note', text: `${r.ms.toFixed(1)} ms` }),
      );
      return;
    }
    const rate =
      r.laneOps !== undefined && r.ms > 0
        ? `; ${r.laneOps} lane-operations, ${Math.round((r.laneOps / r.ms) * 1000).toLocaleString('en')} a second`
        : '';
    const facts = definitions([
      [
        'instructions',
        `${r.steps} run in ${r.waves} wave${r.waves === 1 ? '' : 's'} of ${r.groups} group${r.groups === 1 ? '' : 's'}; ${r.checked} checked before the run`,
      ],
      ['time', `${r.ms.toFixed(1)} ms (scan, run and compare)${rate}`],
      ...(r.compiledInstructions !== undefined
        ? [['compiled ALU', `${r.compiledInstructions} instructions compiled (src/interp/jit)`] as [string, string]]
        : []),
      [
        'compared',
        `${r.rangesCompared} range${r.rangesCompared === 1 ? '' : 's'}, ${r.bytesCompared} bytes${r.rangesNotCompared ? `; ${r.rangesNotCompared} unavailable, not compared` : ''}`,
      ],
      ['differences', `${r.mismatchCount} element${r.mismatchCount === 1 ? '' : 's'}`],
    ]);
    const parts: Node[] = [facts];
    if (r.mismatches.length)
      parts.push(
        el('h4', { text: `First ${r.mismatches.length} differences` }),
        table(
          ['where', 'element', 'type', 'expected', 'got'],
          r.mismatches.map((m) => [
            m.where ?? `0x${m.address.toString(16)}`,
            String(m.element),
            m.type,
            m.expected,
            m.got,
          ]),
          { 'data-testid': 'mismatches', class: 'mono-table' },
        ),
      );
    if (r.buffers.length) parts.push(el('h4', { text: 'Expected ranges' }), ...r.buffers.map(renderBufferTable));
    this.details.replaceChildren(...parts);
  }

  private setVerdict(kind: RunReport['kind'] | undefined, text: string): void {
    this.verdict.textContent = text;
    if (kind) this.verdict.dataset.verdict = kind;
    else delete this.verdict.dataset.verdict;
  }
}
