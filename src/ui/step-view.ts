/**
 * The Step view: the capture on the reference interpreter, one instruction of a chosen wave at
 * a time (src/interp/stepper.ts through the worker), showing the wave's PC and next
 * instruction, EXEC, VCC, SCC, M0, MODE, its SGPRs and any lane's VGPRs. Values the last
 * command changed carry a mark and the words "changed" for screen readers, not only a colour.
 */
import { el, hex32 } from './dom.ts';
import type { NamedError, Outcome, StepCommand, StepFocus, StepSnapshot, WaveDetail } from './worker-api.ts';
import type { StepEvent } from '../interp/stepper.ts';

export type StepDriver = (command: StepCommand, focus: StepFocus) => Promise<Outcome<StepSnapshot>>;

const SGPRS_PER_ROW = 8;

function eventText(e: StepEvent | undefined, ran: number): string {
  if (!e) return ran ? `${ran} instructions run` : 'ready';
  switch (e.kind) {
    case 'stepped':
      return ran === 1 ? `wave ${e.wave} ran the instruction at 0x${e.pc.toString(16)}` : `${ran} instructions run`;
    case 'round':
      return `one round: ${e.stepped} wave${e.stepped === 1 ? '' : 's'} ran an instruction`;
    case 'waiting':
      return `wave ${e.wave} waits at s_barrier for wave${e.for.length === 1 ? '' : 's'} ${e.for.join(', ')}: step ${e.for.length === 1 ? 'it' : 'them'} to the barrier`;
    case 'wave-done':
      return `wave ${e.wave} has ended${ran ? ` (${ran} instructions run)` : ''}`;
    case 'group-done':
      return 'every wave of the group has ended';
    case 'dispatch-done':
      return 'every group of the dispatch has run';
    case 'refused':
      return `refused: ${e.reason}`;
  }
}

function button(label: string, testid: string, title: string): HTMLButtonElement {
  return el('button', { type: 'button', 'data-testid': testid, title, text: label });
}

export class StepView {
  private focus: { wave: number; lane: number; vgprs?: number } = { wave: 0, lane: 0 };
  private last: StepSnapshot | undefined;
  private readonly waveSelect = el('select', { id: 'step-wave', 'data-testid': 'step-wave' });
  private readonly laneInput = el('input', {
    id: 'step-lane',
    type: 'number',
    min: '0',
    max: '63',
    value: '0',
    'data-testid': 'step-lane',
  });
  private readonly vgprInput = el('input', {
    id: 'step-vgprs',
    type: 'number',
    min: '1',
    max: '256',
    'data-testid': 'step-vgpr-count',
  });
  private readonly buttons = {
    one: button('Step', 'step-one', 'run the next instruction of the chosen wave'),
    ten: button('Step 10', 'step-ten', 'run up to 10 instructions of the chosen wave'),
    round: button('Step every wave', 'step-round', 'each wave of the group runs one instruction'),
    finish: button('Finish group', 'step-finish', 'run every wave of the group to its end'),
    next: button('Next group', 'step-next-group', 'finish this group and start the next'),
    restart: button('Restart', 'step-restart', 'start the dispatch again from its first group'),
  };
  private readonly status = el('p', { class: 'step-status', 'data-testid': 'step-status', 'aria-live': 'polite' });
  private readonly state = el('div', { class: 'step-state' });
  private started = false;

  constructor(
    panel: HTMLElement,
    private readonly drive: StepDriver,
  ) {
    const b = this.buttons;
    b.one.addEventListener('click', () => void this.run({ kind: 'wave', count: 1 }));
    b.ten.addEventListener('click', () => void this.run({ kind: 'wave', count: 10 }));
    b.round.addEventListener('click', () => void this.run({ kind: 'round' }));
    b.finish.addEventListener('click', () => void this.run({ kind: 'finish-group' }));
    b.next.addEventListener('click', () => void this.run({ kind: 'next-group' }));
    b.restart.addEventListener('click', () => void this.run({ kind: 'restart' }));
    this.waveSelect.addEventListener('change', () => {
      this.focus = { ...this.focus, wave: Number(this.waveSelect.value) };
      void this.run({ kind: 'look' });
    });
    this.laneInput.addEventListener('change', () => {
      this.focus = { ...this.focus, lane: Math.max(0, Number(this.laneInput.value) | 0) };
      void this.run({ kind: 'look' });
    });
    this.vgprInput.addEventListener('change', () => {
      const n = Number(this.vgprInput.value) | 0;
      this.focus = { ...this.focus, vgprs: n > 0 ? Math.min(256, n) : undefined };
      void this.run({ kind: 'look' });
    });
    panel.replaceChildren(
      el('h2', { text: 'Step' }),
      el('p', {
        class: 'note',
        text: 'The dispatch on the reference interpreter, one instruction at a time. Groups run in grid order; a wave at s_barrier waits until every live wave of its group has arrived. Offsets are bytes from the entry, as in the Program view.',
      }),
      el(
        'div',
        { class: 'controls', role: 'group', 'aria-label': 'what to look at' },
        el('label', { for: 'step-wave', text: 'wave ' }),
        this.waveSelect,
        el('label', { for: 'step-lane', text: 'lane ' }),
        this.laneInput,
        el('label', { for: 'step-vgprs', text: 'VGPRs shown ' }),
        this.vgprInput,
      ),
      el('div', { class: 'controls', role: 'group', 'aria-label': 'stepping' }, ...Object.values(b)),
      this.status,
      this.state,
    );
  }

  /** A new capture opened: the stepper starts again when the view is next shown. */
  reset(): void {
    this.started = false;
    this.last = undefined;
    this.focus = { wave: 0, lane: this.focus.lane };
    this.status.textContent = 'not started';
    this.state.replaceChildren();
  }

  /** The view is shown: make the stepper the first time. */
  shown(): void {
    if (this.started) return;
    this.started = true;
    void this.run({ kind: 'look' });
  }

  setBusy(busy: boolean): void {
    for (const b of Object.values(this.buttons)) b.disabled = busy;
  }

  private async run(command: StepCommand): Promise<void> {
    this.started = true;
    let r: Outcome<StepSnapshot>;
    try {
      r = await this.drive(command, this.focus);
    } catch (e) {
      this.problem({
        name: e instanceof Error ? e.name : 'Error',
        message: e instanceof Error ? e.message : String(e),
      });
      return;
    }
    if (!r.ok) {
      this.problem(r.error);
      return;
    }
    const prev = command.kind === 'restart' ? undefined : this.last;
    this.last = r.value;
    this.render(r.value, prev);
  }

  private problem(e: NamedError): void {
    this.last = undefined;
    this.status.textContent = '';
    this.state.replaceChildren(
      el('p', { class: 'problem', role: 'alert', 'data-testid': 'step-problem', text: `${e.name}: ${e.message}` }),
    );
  }

  private render(s: StepSnapshot, prev: StepSnapshot | undefined): void {
    this.waveSelect.replaceChildren(
      ...s.waves.map((w) =>
        el('option', {
          value: String(w.id),
          text: `wave ${w.id}: ${w.done ? 'ended' : w.atBarrier ? `at barrier, 0x${w.pc.toString(16)}` : `at 0x${w.pc.toString(16)}`}, ${w.activeLanes} lanes`,
        }),
      ),
    );
    if (s.wave) this.waveSelect.value = String(s.wave.id);
    if (s.wave) {
      this.laneInput.max = String(s.wave.lanes - 1);
      this.laneInput.value = String(s.wave.lane);
    }
    this.vgprInput.value = String(this.focus.vgprs ?? s.defaultVgprs);
    const group = s.finished
      ? `all ${s.groupCount} group${s.groupCount === 1 ? '' : 's'} have run`
      : `group ${s.groupIndex + 1} of ${s.groupCount} (id ${s.groupId.join(', ')})`;
    this.status.textContent = `${group}; ${s.steps} instructions run in all; ${eventText(s.event, s.ran)}`;
    this.status.classList.toggle('problem', s.refusal !== undefined);
    const done = s.finished || s.refusal !== undefined;
    this.buttons.one.disabled = this.buttons.ten.disabled = this.buttons.round.disabled = done;
    this.buttons.finish.disabled = this.buttons.next.disabled = done;
    const w = s.wave;
    if (!w) {
      this.state.replaceChildren(el('p', { class: 'note', text: 'no wave to show' }));
      return;
    }
    const same = prev?.wave && prev.groupIndex === s.groupIndex && prev.wave.id === w.id ? prev.wave : undefined;
    const sameLane = same && same.lane === w.lane ? same : undefined;
    const parts: Node[] = [];
    if (s.refusal)
      parts.push(
        el('p', {
          class: 'problem',
          role: 'alert',
          'data-testid': 'step-refusal',
          text: `The interpreter stopped: ${s.refusal}. The registers are as the refused instruction left them (it may have written some lanes).`,
        }),
      );
    parts.push(
      this.nextLine(w),
      this.specials(w, same),
      this.sgprTable(w, same),
      this.vgprTable(w, sameLane),
      el('p', { class: 'note', text: '• marks a value the last command changed.' }),
    );
    this.state.replaceChildren(...parts);
  }

  private nextLine(w: WaveDetail): HTMLElement {
    return el(
      'p',
      { class: 'next', 'data-testid': 'step-next' },
      el('span', { class: 'mono', 'data-testid': 'step-pc', text: `0x${w.pc.toString(16).padStart(4, '0')}` }),
      ' ',
      el('span', { class: 'mono', text: w.done ? w.next : `next: ${w.next}` }),
      w.atBarrier ? ' (waiting at the barrier)' : '',
    );
  }

  private specials(w: WaveDetail, prev: WaveDetail | undefined): HTMLElement {
    const pair = (v: readonly [number, number]): string =>
      w.lanes === 64 ? `${hex32(v[1])}:${hex32(v[0])}` : hex32(v[0]);
    const count = (v: readonly [number, number]): number => popcount(v[0]) + (w.lanes === 64 ? popcount(v[1]) : 0);
    const rows: [string, string, string, boolean][] = [
      [
        'EXEC',
        'step-exec',
        `${pair(w.exec)} (${count(w.exec)} of ${w.lanes} lanes)`,
        !!prev && (prev.exec[0] !== w.exec[0] || prev.exec[1] !== w.exec[1]),
      ],
      ['VCC', 'step-vcc', pair(w.vcc), !!prev && (prev.vcc[0] !== w.vcc[0] || prev.vcc[1] !== w.vcc[1])],
      ['SCC', 'step-scc', w.scc ? '1' : '0', !!prev && prev.scc !== w.scc],
      ['M0', 'step-m0', hex32(w.m0), !!prev && prev.m0 !== w.m0],
      ['MODE', 'step-mode', hex32(w.mode), !!prev && prev.mode !== w.mode],
    ];
    return el(
      'table',
      { class: 'regs specials', 'aria-label': 'wave state' },
      el(
        'tbody',
        {},
        ...rows.map(([name, id, text, changed]) =>
          el('tr', {}, el('th', { scope: 'row', text: name }), valueCell(text, changed, id)),
        ),
      ),
    );
  }

  private sgprTable(w: WaveDetail, prev: WaveDetail | undefined): HTMLElement {
    const rows: HTMLTableRowElement[] = [];
    for (let r = 0; r < w.sgprs.length; r += SGPRS_PER_ROW) {
      const cells: HTMLElement[] = [el('th', { scope: 'row', text: `s${r}` })];
      for (let i = r; i < Math.min(r + SGPRS_PER_ROW, w.sgprs.length); i++)
        cells.push(valueCell(hex32(w.sgprs[i]), !!prev && prev.sgprs[i] !== w.sgprs[i], `sgpr-${i}`, `s${i}`));
      rows.push(el('tr', {}, ...cells));
    }
    return el(
      'section',
      { 'aria-labelledby': 'sgpr-heading' },
      el('h3', { id: 'sgpr-heading', text: `SGPRs s0–s${w.sgprs.length - 1}` }),
      el(
        'table',
        { class: 'regs grid', 'aria-label': 'SGPRs' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', { scope: 'col', text: 'from' }),
            ...Array.from({ length: SGPRS_PER_ROW }, (_, i) => el('th', { scope: 'col', text: `+${i}` })),
          ),
        ),
        el('tbody', {}, ...rows),
      ),
    );
  }

  private vgprTable(w: WaveDetail, prev: WaveDetail | undefined): HTMLElement {
    const rows = w.vgprs.map((v, i) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row', text: `v${i}` }),
        valueCell(hex32(v), !!prev && prev.vgprs[i] !== v, `vgpr-${i}`),
        el('td', { class: 'mono', text: String(v >>> 0) }),
        el('td', { class: 'mono', text: f32Text(v) }),
      ),
    );
    return el(
      'section',
      { 'aria-labelledby': 'vgpr-heading', 'data-testid': 'step-vgprs' },
      el('h3', {
        id: 'vgpr-heading',
        text: `VGPRs of lane ${w.lane} (${w.laneActive ? 'active in EXEC' : 'inactive in EXEC'})`,
      }),
      el(
        'table',
        { class: 'regs', 'aria-label': `VGPRs of lane ${w.lane}` },
        el(
          'thead',
          {},
          el('tr', {}, ...['register', 'hex', 'unsigned', 'as f32'].map((h) => el('th', { scope: 'col', text: h }))),
        ),
        el('tbody', {}, ...rows),
      ),
    );
  }
}

function valueCell(text: string, changed: boolean, testid: string, name?: string): HTMLTableCellElement {
  return el(
    'td',
    { class: changed ? 'mono changed' : 'mono', 'data-testid': testid, title: name },
    changed ? el('span', { class: 'mark', 'aria-label': 'changed', text: '• ' }) : null,
    el('span', { class: 'value', text }),
  );
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

function f32Text(bits: number): string {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setUint32(0, bits >>> 0, true);
  const v = dv.getFloat32(0, true);
  for (let p = 1; p <= 9; p++) {
    const t = v.toPrecision(p);
    if (Math.fround(Number(t)) === v) return String(Number(t));
  }
  return String(v);
}
