/**
 * bench/results.json: every benchmark's latest figures, with units. Each benchmark
 * replaces its own entry and keeps the others'.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_PATH = fileURLToPath(new URL('./results.json', import.meta.url));

export interface Figure {
  readonly value: number | null;
  readonly unit: string;
  readonly note?: string;
}

export interface BenchEntry {
  readonly measuredAt: string;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly node: string; readonly os: string };
  readonly params: Readonly<Record<string, string | number | boolean>>;
  readonly figures: Readonly<Record<string, Figure>>;
}

export function machine(): BenchEntry['machine'] {
  const c = cpus();
  return { cpu: c[0]?.model ?? 'unknown', cores: c.length, node: process.version, os: `${platform()} ${release()}` };
}

export function readResults(path = RESULTS_PATH): Record<string, BenchEntry> {
  if (!existsSync(path)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, BenchEntry>) : {};
  } catch {
    return {}; // a corrupt file is replaced rather than stopping the benchmark
  }
}

/** Replaces `name`'s entry in results.json, keeping every other benchmark's. */
export function writeResult(name: string, entry: BenchEntry, path = RESULTS_PATH): void {
  const all = readResults(path);
  all[name] = entry;
  const sorted = Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((k) => [k, all[k]]),
  );
  writeFileSync(path, JSON.stringify(sorted, null, 2) + '\n');
}

export function printFigures(name: string, figures: Readonly<Record<string, Figure>>): void {
  console.log(`\n${name}`);
  const width = Math.max(...Object.keys(figures).map((k) => k.length));
  for (const [k, f] of Object.entries(figures)) {
    const v =
      f.value === null ? 'n/a' : Number.isInteger(f.value) ? f.value.toLocaleString('en-US') : f.value.toPrecision(4);
    console.log(`  ${k.padEnd(width)}  ${v} ${f.unit}${f.note ? `  (${f.note})` : ''}`);
  }
}
