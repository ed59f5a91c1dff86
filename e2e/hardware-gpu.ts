/**
 * Whether this machine can give Chromium a hardware Vulkan adapter (npm run e2e:gpu): a
 * hardware Vulkan driver is installed (an ICD manifest other than Mesa's lavapipe or
 * SwiftShader) and a GPU device node exists for it to open (/dev/dri/renderD*, /dev/nvidia*).
 * Decided from the file system, before the browser starts: Chromium told to use native
 * Vulkan on a machine without a GPU does not fall back, its WebGPU requests never answer.
 */
import { existsSync, readdirSync } from 'node:fs';

const ICD_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d'];
const SOFTWARE_ICD = /lvp|lavapipe|swiftshader/i;

const list = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

export interface HardwareGpuProbe {
  readonly present: boolean;
  /** Why, in words, for the report. */
  readonly reason: string;
}

export function probeHardwareGpu(): HardwareGpuProbe {
  const drivers = ICD_DIRS.flatMap((d) => list(d).filter((f) => f.endsWith('.json') && !SOFTWARE_ICD.test(f)));
  const nodes = [
    ...list('/dev/dri')
      .filter((f) => f.startsWith('renderD'))
      .map((f) => `/dev/dri/${f}`),
    ...list('/dev')
      .filter((f) => /^nvidia\d+$/.test(f))
      .map((f) => `/dev/${f}`),
  ].filter((p) => existsSync(p));
  if (drivers.length === 0) return { present: false, reason: 'no hardware Vulkan driver (ICD) is installed' };
  if (nodes.length === 0)
    return {
      present: false,
      reason: `Vulkan drivers ${drivers.join(', ')} are installed but no GPU device node exists`,
    };
  return { present: true, reason: `Vulkan drivers ${drivers.join(', ')}; devices ${nodes.join(', ')}` };
}
