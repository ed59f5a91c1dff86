/**
 * The Run view's WebGPU section: the adapter navigator.gpu gives (its name, features and the
 * limits a translated dispatch must fit) and a device held for the page (the GPU run uses it
 * where the analysis worker has no WebGPU). A missing navigator.gpu, a null adapter, a failed device request and a lost
 * device each show as a message, with a way to ask again.
 */
import { definitions, el } from './dom.ts';

/** The limits that decide what a translated dispatch may use (src/translator/translate.ts reads the first two). */
const LIMITS = [
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupsPerDimension',
] as const;

export class GpuPanel {
  readonly element = el('section', { class: 'gpu', 'data-testid': 'gpu', 'aria-labelledby': 'gpu-heading' });
  private readonly body = el('div', { 'aria-live': 'polite' });
  private deviceValue: GPUDevice | undefined;
  /** The adapter's name, once one is found. */
  adapterName = 'no adapter';

  constructor() {
    this.element.append(el('h3', { id: 'gpu-heading', text: 'WebGPU' }), this.body);
  }

  /** The device, while one is held and not lost. */
  get device(): GPUDevice | undefined {
    return this.deviceValue;
  }

  async connect(): Promise<void> {
    this.deviceValue = undefined;
    this.body.replaceChildren(el('p', { text: 'asking navigator.gpu for an adapter…' }));
    if (!('gpu' in navigator) || !navigator.gpu) {
      this.problem(
        'navigator.gpu is missing: this browser has no WebGPU here (it needs a secure context, and Chromium on Linux needs --enable-unsafe-webgpu).',
      );
      return;
    }
    let adapter: GPUAdapter | null;
    try {
      adapter = await navigator.gpu.requestAdapter();
    } catch (e) {
      this.problem(`requestAdapter() failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (!adapter) {
      this.problem('requestAdapter() returned no adapter: WebGPU is available but no GPU (or fallback) could be used.');
      return;
    }
    const info = adapter.info;
    const name = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ');
    this.adapterName = name || 'an adapter that gives no name';
    const features = [...adapter.features].sort();
    const deviceLine = el('p', { 'data-testid': 'gpu-device', text: 'requesting a device…' });
    this.body.replaceChildren(
      definitions([
        ['adapter', el('span', { 'data-testid': 'gpu-adapter', text: name || 'an adapter that gives no name' })],
        [
          'features',
          features.length
            ? el(
                'ul',
                { class: 'inline', 'data-testid': 'gpu-features' },
                ...features.map((f) => el('li', { text: f })),
              )
            : 'none beyond the core',
        ],
        ...LIMITS.map((k): [string, string] => [k, String(adapter.limits[k])]),
      ]),
      deviceLine,
      el('p', {
        class: 'note',
        text: 'The GPU run above uses this adapter; it runs in the analysis worker with a device of its own where the worker has WebGPU, else with this device.',
      }),
    );
    let device: GPUDevice;
    try {
      device = await adapter.requestDevice();
    } catch (e) {
      deviceLine.textContent = `requestDevice() failed: ${e instanceof Error ? e.message : String(e)}`;
      deviceLine.classList.add('problem');
      return;
    }
    this.deviceValue = device;
    deviceLine.textContent = 'a device is held for the GPU run';
    void device.lost.then((lost) => {
      if (this.deviceValue !== device) return;
      this.deviceValue = undefined;
      deviceLine.replaceChildren(
        el('strong', { text: 'The GPU device was lost' }),
        ` (${lost.reason}${lost.message ? `: ${lost.message}` : ''}). The interpreter still works. `,
        this.retryButton('Request a new device'),
      );
      deviceLine.classList.add('problem');
      deviceLine.setAttribute('role', 'alert');
    });
  }

  private problem(text: string): void {
    this.body.replaceChildren(
      el('p', { class: 'problem', role: 'note', 'data-testid': 'gpu-problem', text }),
      this.retryButton('Ask again'),
    );
  }

  private retryButton(label: string): HTMLButtonElement {
    const b = el('button', { type: 'button', text: label });
    b.addEventListener('click', () => void this.connect());
    return b;
  }
}
