/**
 * The browser half of the WebGPU smoke test: SMOKE_WGSL through navigator.gpu with the
 * same runComputeOnce the Node test uses. The read-back words go to `window.__gpuSmoke`
 * (the e2e test checks them itself) and a summary to [data-testid=gpu-smoke-result].
 */
import './style.css';
import { runComputeOnce, SMOKE_WGSL, SMOKE_WORKGROUP_SIZE, smokeInput, smokeMismatches } from '../host/gpu-compute.ts';

export interface GpuSmokeResult {
  readonly ok: boolean;
  readonly error?: string;
  readonly adapter?: string;
  readonly input?: number[];
  readonly words?: number[];
  readonly workgroups?: number;
  readonly mismatches?: number;
  readonly ms?: number;
}

declare global {
  interface Window {
    __gpuSmoke?: GpuSmokeResult;
  }
}

export const SMOKE_WORKGROUPS = 16;
export const SMOKE_INPUT_WORDS = 37;

async function run(): Promise<GpuSmokeResult> {
  if (!('gpu' in navigator) || !navigator.gpu)
    return { ok: false, error: 'navigator.gpu is missing (not a secure context, or WebGPU is disabled)' };
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter)
    return { ok: false, error: 'requestAdapter() returned null (Chromium needs --enable-unsafe-webgpu here)' };
  const info = adapter.info;
  const adapterName = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ');
  const device = await adapter.requestDevice();
  try {
    const input = smokeInput(SMOKE_INPUT_WORDS);
    const n = SMOKE_WORKGROUPS * SMOKE_WORKGROUP_SIZE;
    const t0 = performance.now();
    const out = await runComputeOnce(device, SMOKE_WGSL, input, n, SMOKE_WORKGROUPS);
    const ms = performance.now() - t0;
    const bad = smokeMismatches(out, input, n).length;
    return {
      ok: bad === 0,
      adapter: adapterName,
      input: Array.from(input),
      words: Array.from(out),
      workgroups: SMOKE_WORKGROUPS,
      mismatches: bad,
      ms,
    };
  } finally {
    device.destroy();
  }
}

const el = document.getElementById('gpu-smoke-result')!;
run()
  .catch((e: unknown): GpuSmokeResult => ({
    ok: false,
    error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
  }))
  .then((r) => {
    window.__gpuSmoke = r;
    el.dataset.state = r.ok ? 'pass' : 'fail';
    el.textContent = r.ok
      ? `pass: ${r.words?.length} words read back and checked on ${r.adapter || 'an unnamed adapter'} (${r.ms?.toFixed(1)} ms)`
      : `fail: ${r.error ?? `${r.mismatches} mismatched words`}`;
  });
