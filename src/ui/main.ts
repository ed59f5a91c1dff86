/**
 * The app shell. Until captures exist it opens a bundled sample program (public/samples/)
 * and shows its disassembly with addresses, decoded by the project's decoder; lines the
 * decoder rejects show the DecodeError instead. Plain TypeScript and DOM.
 */
import './style.css';
import { PROCESSORS, targetFor, type Target } from '../isa/gen.ts';
import { hex32, rawListing, type Listing, type ListingLine } from './listing-core.ts';
import type * as ListingModule from './listing.ts';

// The decoder is loaded on its own, so that a decoder that fails to load still leaves a
// page that shows the program's dwords and the reason.
let decoder: typeof ListingModule | undefined;
let decoderError: string | undefined;
const decoderReady = import('./listing.ts').then(
  (m) => {
    decoder = m;
  },
  (e: unknown) => {
    decoderError = `the decoder failed to load: ${e instanceof Error ? e.message : String(e)}`;
    console.error(e);
  },
);

interface Sample {
  readonly name: string;
  readonly file: string;
  readonly cpu: string;
  readonly wave64: boolean;
  readonly source?: string;
  readonly reference?: string;
}

const SAMPLES_URL = 'samples/';
/** Runs of identical instructions longer than this are collapsed to their first line. */
const COLLAPSE_RUNS_OVER = 3;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function byId<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`missing #${id}`);
  return e as T;
}

const state: { bytes: Uint8Array | undefined; name: string; sample: Sample | undefined } = {
  bytes: undefined,
  name: '',
  sample: undefined,
};

function currentTarget(): Target {
  const cpu = byId<HTMLSelectElement>('mcpu').value;
  const wave64 = byId<HTMLInputElement>('wave64').checked;
  return targetFor(cpu, wave64);
}

function renderListing(listing: Listing, target: Target): HTMLElement {
  const list = el('ol', {
    class: 'listing',
    'data-testid': 'program',
    'data-decoded': String(listing.decoded),
    'data-errors': String(listing.errors),
    'data-mcpu': target.cpu,
  });
  const addrWidth = Math.max(4, ((listing.lines.at(-1)?.offset ?? 0) >>> 0).toString(16).length);
  const addr = (offset: number) => offset.toString(16).padStart(addrWidth, '0');
  const same = (a: ListingLine, b: ListingLine) =>
    a.text === b.text && a.error === undefined && b.error === undefined && a.words.join() === b.words.join();
  const lines = listing.lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
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
      { class: line.error ? 'line err' : 'line ok', 'data-testid': 'instruction', 'data-offset': String(line.offset) },
      el('span', { class: 'addr', text: addr(line.offset) }),
      el('span', { class: 'words', text: line.words.map(hex32).join(' ') }),
      line.error
        ? el('span', { class: 'error', text: line.error })
        : el('span', { class: 'text', text: line.text ?? '' }),
    );
    list.append(item);
    // A run of identical instructions (the s_code_end padding) is shown once, then counted.
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
  return list;
}

function render(): void {
  const out = byId('listing');
  const status = byId('status');
  if (!state.bytes) {
    out.replaceChildren();
    return;
  }
  let target: Target;
  try {
    target = currentTarget();
  } catch (e) {
    status.textContent = String(e);
    return;
  }
  const t0 = performance.now();
  const listing = decoder
    ? decoder.disassembleListing(target, state.bytes)
    : rawListing(state.bytes, decoderError ?? 'the decoder is not loaded');
  const ms = performance.now() - t0;
  out.replaceChildren(renderListing(listing, target));
  status.textContent =
    `${state.name}: ${state.bytes.length} bytes, ${listing.decoded} instructions decoded, ` +
    `${listing.errors} undecoded dwords (--mcpu=${target.cpu}${target.wave64 ? ' wave64' : ''}, ${ms.toFixed(1)} ms)`;
  const links = byId('sample-links');
  links.replaceChildren();
  if (state.sample?.source)
    links.append(el('a', { href: SAMPLES_URL + state.sample.source, text: 'source', target: '_blank' }));
  if (state.sample?.reference)
    links.append(
      ' ',
      el('a', { href: SAMPLES_URL + state.sample.reference, text: 'reference listing', target: '_blank' }),
    );
  document.body.dataset.ready = 'true';
}

async function loadSample(sample: Sample): Promise<void> {
  const res = await fetch(SAMPLES_URL + sample.file);
  if (!res.ok) throw new Error(`${sample.file}: HTTP ${res.status}`);
  state.bytes = new Uint8Array(await res.arrayBuffer());
  state.name = sample.file;
  state.sample = sample;
  byId<HTMLSelectElement>('mcpu').value = sample.cpu;
  byId<HTMLInputElement>('wave64').checked = sample.wave64;
  syncWave64();
  render();
}

function syncWave64(): void {
  const box = byId<HTMLInputElement>('wave64');
  const t = targetFor(byId<HTMLSelectElement>('mcpu').value, box.checked);
  box.disabled = t.gen < targetFor('gfx1010').gen; // gfx7-9 are always wave64
  if (box.disabled) box.checked = true;
}

function buildShell(samples: readonly Sample[]): void {
  const app = byId('app');
  const sampleSelect = el('select', { id: 'sample', 'aria-label': 'sample program' });
  samples.forEach((s, i) => sampleSelect.append(el('option', { value: String(i), text: s.name })));
  const mcpu = el('select', { id: 'mcpu', 'aria-label': '--mcpu' });
  for (const cpu of Object.keys(PROCESSORS)) mcpu.append(el('option', { value: cpu, text: cpu }));
  const wave64 = el('input', { id: 'wave64', type: 'checkbox' });
  const file = el('input', { id: 'file', type: 'file', accept: '.bin,.o,application/octet-stream' });
  app.replaceChildren(
    el(
      'header',
      {},
      el('h1', { text: 'gcn-webgpu' }),
      el('p', {
        class: 'tagline',
        text: 'Decode, trace, translate and run captured AMD GCN/RDNA compute dispatches on WebGPU.',
      }),
    ),
    el(
      'section',
      { class: 'controls' },
      el('label', {}, 'program ', sampleSelect),
      el('label', {}, '--mcpu ', mcpu),
      el('label', {}, wave64, ' wave64'),
      el('label', {}, 'open raw code ', file),
      el('span', { id: 'sample-links' }),
    ),
    el('p', { id: 'status', 'data-testid': 'status', text: 'loading…' }),
    el('div', { id: 'listing' }),
  );
  sampleSelect.addEventListener('change', () => void loadSample(samples[Number(sampleSelect.value)]).catch(showError));
  mcpu.addEventListener('change', () => {
    syncWave64();
    render();
  });
  wave64.addEventListener('change', render);
  file.addEventListener('change', () => {
    const f = file.files?.[0];
    if (!f) return;
    void f.arrayBuffer().then((buf) => {
      state.bytes = new Uint8Array(buf);
      state.name = f.name;
      state.sample = undefined;
      render();
    }, showError);
  });
}

function showError(e: unknown): void {
  const status = document.getElementById('status');
  if (status) status.textContent = `error: ${e instanceof Error ? e.message : String(e)}`;
  document.body.dataset.ready = 'error';
}

async function main(): Promise<void> {
  await decoderReady;
  const res = await fetch(SAMPLES_URL + 'index.json');
  if (!res.ok) throw new Error(`samples/index.json: HTTP ${res.status}`);
  const samples = (await res.json()) as Sample[];
  buildShell(samples);
  const params = new URLSearchParams(location.search);
  const first = samples[0];
  if (!first) {
    byId('status').textContent = 'no bundled samples';
    return;
  }
  const cpu = params.get('mcpu');
  const sample: Sample =
    cpu && cpu in PROCESSORS ? { ...first, cpu, wave64: params.get('wave64') === '1' || first.wave64 } : first;
  await loadSample(sample);
}

main().catch(showError);
