/**
 * The Modules view: the WGSL and SPIR-V the translator makes of the capture. Until the
 * translator is connected (worker.ts `modules`), each panel says so and shows no text.
 */
import { el } from './dom.ts';
import type { ModulesStatus } from './worker-api.ts';

function modulePanel(id: string, title: string, body: Node): HTMLElement {
  return el(
    'section',
    { class: 'module', 'aria-labelledby': `${id}-heading`, 'data-testid': id },
    el('h3', { id: `${id}-heading`, text: title }),
    body,
  );
}

export function renderModulesView(panel: HTMLElement, status: ModulesStatus | undefined): void {
  const heading = el('h2', { text: 'Modules' });
  if (!status) {
    panel.replaceChildren(heading, el('p', { text: 'no capture is open' }));
    return;
  }
  if (status.kind !== 'modules') {
    const message = (): HTMLElement =>
      el('p', {
        class: status.kind === 'refused' ? 'problem' : 'note',
        role: 'note',
        'data-testid': 'modules-status',
        text: status.kind === 'refused' ? `the translator refused: ${status.reason}` : status.reason,
      });
    panel.replaceChildren(
      heading,
      modulePanel('module-wgsl', 'WGSL', message()),
      modulePanel('module-spirv', 'SPIR-V (disassembled)', message()),
    );
    return;
  }
  panel.replaceChildren(
    heading,
    modulePanel('module-wgsl', 'WGSL', el('pre', { class: 'code', tabindex: '0', text: status.wgsl })),
    modulePanel(
      'module-spirv',
      'SPIR-V (disassembled)',
      status.spirv !== undefined
        ? el('pre', { class: 'code', tabindex: '0', text: status.spirv })
        : el('p', { class: 'note', text: 'the translator gave no SPIR-V for this capture' }),
    ),
  );
}
