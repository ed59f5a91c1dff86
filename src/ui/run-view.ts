/**
 * The Run view: the capture run on the reference interpreter and on the WebGPU adapter
 * (through the translator), side by side, each with its verdict, timings and the difference
 * from the expectation (the first mismatches, and each expected range as a table with the
 * differing elements marked, and a range a T# lays out as pictures beside a difference
 * picture: image-diff-view.ts), and whether the two runs agree; below them the adapter
 * (gpu-panel.ts). A GPU error or a lost device is a message in the GPU column; the
 * interpreter column and the rest of the app go on.
 */
import { definitions, el, table } from './dom.ts';
import { renderBufferTable } from './buffer-table.ts';
import { renderImageComparison } from './image-diff-view.ts';
import type { GpuPanel } from './gpu-panel.ts';
import type { Mismatch } from '../interp/compare.ts';
import type { BufferComparison, CaptureSummary, GpuRunReport, NamedError, RunReport } from './worker-api.ts';

/**
 * The event the Run view sends on its document as a GPU run starts, fails or reports (detail:
 * GpuRunEvent), so the Tables view can list the run's escapes.
 */
export const GPU_RUN_EVENT = 'gcn-webgpu:gpu-run';

export type GpuRunEvent =
  | { readonly kind: 'started' }
  | { readonly kind: 'failed'; readonly error: NamedError }
  | { readonly kind: 'report'; readonly report: GpuRunReport };

const announce = (detail: GpuRunEvent): void => {
  document.dispatchEvent(new CustomEvent<GpuRunEvent>(GPU_RUN_EVENT, { detail }));
};

const GPU_VERDICT_TEXT: Readonly<Record<GpuRunReport['kind'], string>> = {
  match: 'the device left what the capture expects',
  mismatch: 'the device left something other than what the capture expects',
  refused: 'the translator or the replay will not run this capture on the GPU',
  invalid: 'the capture cannot describe a dispatch',
  'gpu-error': 'the GPU run failed',
  'no-webgpu-here': 'no WebGPU where the run was asked for',
};

function mismatchTable(mismatches: readonly Mismatch[], testid: string): Node[] {
  if (!mismatches.length) return [];
  return [
    el('h4', { text: `First ${mismatches.length} differences` }),
    table(
      ['where', 'element', 'type', 'expected', 'got'],
      mismatches.map((m) => [m.where ?? `0x${m.address.toString(16)}`, String(m.element), m.type, m.expected, m.got]),
      { 'data-testid': testid, class: 'mono-table' },
    ),
  ];
}

/** The ranges' images as pictures (image-diff-view.ts), under one heading; nothing where no range holds one. */
function imageParts(buffers: readonly BufferComparison[], run: string): Node[] {
  const images = buffers.flatMap((b) => b.images ?? []);
  if (!images.length) return [];
  return [el('h4', { text: `Images (${run})` }), ...images.map((c) => renderImageComparison(c, run))];
}

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
  private readonly gpuButton = el('button', { type: 'button', 'data-testid': 'run-gpu', text: 'Run on WebGPU' });
  private readonly bothButton = el('button', {
    type: 'button',
    'data-testid': 'run-both',
    text: 'Run on both',
    'aria-label': 'Run on the interpreter, then on WebGPU',
  });
  private readonly gpuVerdict = el('p', {
    class: 'verdict',
    'data-testid': 'gpu-verdict',
    'aria-live': 'polite',
    text: 'not run yet',
  });
  private readonly gpuDetails = el('div');
  private readonly agreement = el('p', { class: 'note', 'data-testid': 'run-agreement', 'aria-live': 'polite' });
  private interpKind: RunReport['kind'] | undefined;
  private gpuKind: GpuRunReport['kind'] | undefined;

  constructor(panel: HTMLElement, gpu: GpuPanel, run: () => void, runGpu: () => void, runBoth: () => void) {
    this.runButton.addEventListener('click', run);
    this.gpuButton.addEventListener('click', runGpu);
    this.bothButton.addEventListener('click', runBoth);
    panel.replaceChildren(
      el('h2', { text: 'Run' }),
      el('div', { class: 'controls' }, this.runButton, this.gpuButton, this.bothButton),
      this.agreement,
      el(
        'div',
        { class: 'run-columns' },
        el(
          'section',
          { 'aria-labelledby': 'interp-heading', 'data-testid': 'run-interp' },
          el('h3', { id: 'interp-heading', text: 'Reference interpreter' }),
          this.verdict,
          this.details,
        ),
        el(
          'section',
          { 'aria-labelledby': 'gpu-run-heading', 'data-testid': 'run-webgpu' },
          el('h3', { id: 'gpu-run-heading', text: 'WebGPU (translated, src/translator)' }),
          this.gpuVerdict,
          this.gpuDetails,
        ),
      ),
      gpu.element,
    );
  }

  /** A capture opened: nothing has run on it yet. */
  reset(summary: CaptureSummary): void {
    this.setVerdict(undefined, 'not run yet');
    this.setGpuVerdict(undefined, 'not run yet');
    this.gpuDetails.replaceChildren();
    const expected =
      'unavailable' in summary.expected
        ? `no expected result (${summary.expected.unavailable}): a run can only be refused`
        : `expected: ${summary.expected.ranges.length} range${summary.expected.ranges.length === 1 ? '' : 's'}${summary.expected.registers ? ' and final registers' : ''}, from ${summary.expected.source}`;
    this.details.replaceChildren(el('p', { class: 'note', text: expected }));
  }

  setBusy(busy: boolean): void {
    this.runButton.disabled = busy;
    this.gpuButton.disabled = busy;
    this.bothButton.disabled = busy;
  }

  running(): void {
    this.setVerdict(undefined, 'running…');
    this.details.replaceChildren();
  }

  failed(e: NamedError): void {
    this.setVerdict(undefined, 'not run');
    this.details.replaceChildren(el('p', { class: 'problem', text: `${e.name}: ${e.message}` }));
  }

  gpuRunning(): void {
    announce({ kind: 'started' });
    this.setGpuVerdict(undefined, 'running…');
    this.gpuDetails.replaceChildren();
  }

  gpuFailed(e: NamedError): void {
    announce({ kind: 'failed', error: e });
    this.setGpuVerdict(undefined, 'not run');
    this.gpuDetails.replaceChildren(
      el('p', { class: 'problem', role: 'alert', 'data-testid': 'gpu-reason', text: `${e.name}: ${e.message}` }),
    );
  }

  showGpu(r: GpuRunReport): void {
    // The Tables view lists this run's escapes (tables-view.ts listens; main.ts wires neither to the other).
    announce({ kind: 'report', report: r });
    this.setGpuVerdict(r.kind, `${r.kind}: ${GPU_VERDICT_TEXT[r.kind]}`);
    const where = `run in the ${r.place === 'worker' ? 'analysis worker' : 'page'}`;
    const lost =
      'lostBefore' in r && r.lostBefore
        ? [
            el('p', {
              class: 'problem',
              'data-testid': 'gpu-lost-before',
              text: `The GPU device was lost since the last run (${r.lostBefore}); this run got a new one.`,
            }),
          ]
        : [];
    if (r.kind === 'gpu-error' || r.kind === 'no-webgpu-here') {
      this.gpuDetails.replaceChildren(
        el('p', { class: 'problem', role: 'alert', 'data-testid': 'gpu-reason', text: r.reason }),
        el('p', {
          class: 'note',
          text: `${where}. The interpreter and the other views still work; the next GPU run asks for a new device.`,
        }),
      );
      return;
    }
    if (!('steps' in r)) {
      const escapes = r.escapes;
      this.gpuDetails.replaceChildren(
        ...lost,
        el('p', { class: 'problem', 'data-testid': 'gpu-reason', text: r.reason }),
        ...(escapes
          ? [
              el('p', {
                class: 'note',
                'data-testid': 'gpu-escapes-note',
                text: `${escapes.count} lane access${escapes.count === 1 ? '' : 'es'} escaped: the Tables and directory view lists ${escapes.lanes.length < escapes.count ? `the first ${escapes.lanes.length}` : 'them'} with their lanes and words.`,
              }),
            ]
          : []),
        el('p', { class: 'note', text: `${r.ms.toFixed(1)} ms on ${r.adapter}, ${where}` }),
      );
      return;
    }
    const facts = definitions([
      ['adapter', el('span', { 'data-testid': 'gpu-run-adapter', text: r.adapter })],
      [
        'instructions',
        `${r.steps} run in ${r.waves} wave${r.waves === 1 ? '' : 's'} of ${r.groups} group${r.groups === 1 ? '' : 's'}`,
      ],
      [
        'time',
        el('span', {
          'data-testid': 'gpu-time',
          text: `${r.ms.toFixed(1)} ms (translate, upload, dispatch, read back, compare)${r.deviceMs >= 0.5 ? `; ${r.deviceMs.toFixed(1)} ms getting the device` : ''}; ${where}`,
        }),
      ],
      [
        'compared',
        `${r.rangesCompared} range${r.rangesCompared === 1 ? '' : 's'}, ${r.bytesCompared} bytes${r.rangesNotCompared ? `; ${r.rangesNotCompared} unavailable, not compared` : ''}`,
      ],
      ['differences', `${r.mismatchCount} element${r.mismatchCount === 1 ? '' : 's'}`],
    ]);
    const parts: Node[] = [...lost, facts, ...mismatchTable(r.mismatches, 'gpu-mismatches')];
    if (r.buffers?.length)
      parts.push(
        ...imageParts(r.buffers, 'device'),
        el('h4', { text: 'Expected ranges (device)' }),
        ...r.buffers.map(renderBufferTable),
      );
    else if (!r.buffers)
      parts.push(
        el('p', {
          class: 'note',
          'data-testid': 'gpu-buffers-note',
          text: 'replayOnGpu (src/translator) does not return the memory the device left, only its comparison: the first differences are listed above, the ranges element by element are not.',
        }),
      );
    this.gpuDetails.replaceChildren(...parts);
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
    const parts: Node[] = [facts, ...mismatchTable(r.mismatches, 'mismatches')];
    if (r.buffers.length)
      parts.push(
        ...imageParts(r.buffers, 'interpreter'),
        el('h4', { text: 'Expected ranges' }),
        ...r.buffers.map(renderBufferTable),
      );
    this.details.replaceChildren(...parts);
  }

  private setVerdict(kind: RunReport['kind'] | undefined, text: string): void {
    this.verdict.textContent = text;
    if (kind) this.verdict.dataset.verdict = kind;
    else delete this.verdict.dataset.verdict;
    this.interpKind = kind;
    this.compareRuns();
  }

  private setGpuVerdict(kind: GpuRunReport['kind'] | undefined, text: string): void {
    this.gpuVerdict.textContent = text;
    if (kind) this.gpuVerdict.dataset.verdict = kind;
    else delete this.gpuVerdict.dataset.verdict;
    this.gpuKind = kind;
    this.compareRuns();
  }

  /** Whether the two runs of the current capture reached the same verdict. */
  private compareRuns(): void {
    const a = this.interpKind;
    const b = this.gpuKind;
    if (!a || !b) {
      this.agreement.textContent = 'Run on both to compare the interpreter with the GPU.';
      delete this.agreement.dataset.agree;
      return;
    }
    const agree = a === b;
    this.agreement.dataset.agree = String(agree);
    this.agreement.textContent = agree
      ? `The interpreter and the GPU agree: both ${a}.`
      : `The interpreter says ${a}, the GPU ${b}.`;
  }
}
