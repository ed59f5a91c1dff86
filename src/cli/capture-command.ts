/**
 * `gcn-webgpu capture info FILE [--json]`, `capture build SPEC -o FILE.gcncap [--allow-unavailable]`
 * and `capture redact FILE -o OUT`. Exit 0 on success, 3 on bad usage or invalid input (a
 * capture or spec that is refused: the message starts with the CaptureError's code), 2 where
 * a spec asks `expected: {compute: interpreter}` and the interpreter refuses (nothing written).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs, flagString, UsageError } from './args.ts';
import { GEN_NAMES, PROCESSORS } from '../isa/gen.ts';
import {
  CaptureError,
  buildCapture,
  isUnavailable,
  parseSpec,
  readCapture,
  redact,
  writeCapture,
  type Capture,
  type Manifest,
} from '../host/capture/index.ts';
import { asksInterpreter, completeBuilt } from './expected-by-interpreter.ts';

export interface CaptureIo {
  stdout(s: string): void;
  stderr(s: string): void;
  stdin(): string;
}

const USAGE = `usage: gcn-webgpu capture info FILE.gcncap [--json]
       gcn-webgpu capture build SPEC.yaml|SPEC.json -o FILE.gcncap [--allow-unavailable]
       gcn-webgpu capture redact FILE.gcncap -o OUT.gcncap
  info     prints what a capture holds: target, dispatch, memory ranges with origins, expected, provenance
  build    builds a capture from a spec (docs/capture-spec.md); expected: {compute: interpreter}
           runs the reference interpreter (exit 2 with the reason where it refuses;
           --allow-unavailable records the refusal as an unavailable expected result)
  redact   keeps the manifest and the code, removes every other range's bytes
`;

export async function captureCommand(argv: readonly string[], io: CaptureIo): Promise<number> {
  try {
    const [sub, ...rest] = argv;
    const args = parseArgs(rest, { valued: ['o', 'output'], boolean: ['json', 'allow-unavailable', 'help'] });
    if (sub === undefined || sub === 'help' || sub === '--help' || args.flags.has('help')) {
      io.stdout(USAGE);
      return sub === undefined ? 3 : 0;
    }
    const [file, ...extra] = args.positional;
    if (!file) throw new UsageError(`capture ${sub} needs a FILE`);
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const out = flagString(args, 'o') ?? flagString(args, 'output');
    switch (sub) {
      case 'info': {
        if (out) throw new UsageError('capture info takes no -o');
        const capture = await readCapture(readFileSync(file));
        io.stdout(args.flags.has('json') ? `${JSON.stringify(infoJson(capture), null, 2)}\n` : infoText(file, capture));
        return 0;
      }
      case 'build': {
        if (!out) throw new UsageError('capture build needs -o FILE.gcncap');
        const text = file === '-' ? io.stdin() : readFileSync(file, 'utf8');
        const base = file === '-' ? process.cwd() : dirname(resolve(file));
        const allowUnavailable = args.flags.has('allow-unavailable');
        const spec = await buildCapture(parseSpec(text, file), {
          readFile: (p) => readFileSync(resolve(base, p)),
          allowUnavailable,
          interpreterFollows: true,
        });
        let built: { manifest: Manifest; blobs: ReadonlyMap<string, Uint8Array> } = spec;
        if (asksInterpreter(spec)) {
          // expected: {compute: interpreter}: run it now (src/cli/expected-by-interpreter.ts).
          const o = await completeBuilt(spec, { allowUnavailable });
          if (o.kind === 'refused') {
            io.stderr(`gcn-webgpu capture: ${file}: the interpreter refused, no capture written: ${o.reason}\n`);
            return 2;
          }
          if (o.kind === 'invalid') {
            io.stderr(`gcn-webgpu capture: ${file}: the interpreter cannot run it: ${o.reason}\n`);
            return 3;
          }
          if (o.kind === 'unavailable')
            io.stderr(
              `gcn-webgpu capture: ${file}: the interpreter refused, expected recorded as unavailable: ${o.reason}\n`,
            );
          built = o;
        }
        const bytes = await writeCapture(built.manifest, built.blobs);
        writeFileSync(out, bytes);
        io.stdout(`${out}: ${bytes.length} bytes, ${built.manifest.memory.length} memory ranges\n`);
        return 0;
      }
      case 'redact': {
        if (!out) throw new UsageError('capture redact needs -o OUT.gcncap');
        const r = redact(await readCapture(readFileSync(file)));
        const bytes = await writeCapture(r.manifest, r.blobs);
        writeFileSync(out, bytes);
        io.stdout(`${out}: redacted, ${bytes.length} bytes\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown capture command '${sub}' (info, build, redact)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`gcn-webgpu capture: ${e.message}\n${USAGE}`);
      return 3;
    }
    if (e instanceof CaptureError) {
      io.stderr(`gcn-webgpu capture: ${e.message}\n`);
      return 3;
    }
    if (e instanceof Error && 'code' in e && typeof (e as NodeJS.ErrnoException).code === 'string') {
      io.stderr(`gcn-webgpu capture: ${e.message}\n`);
      return 3;
    }
    throw e;
  }
}

function infoJson(c: Capture): unknown {
  return {
    manifest: c.manifest,
    blobs: [...c.blobs].map(([hash, b]) => ({ hash, size: b.length })),
  };
}

const hex = (v: number): string => `0x${(v >>> 0).toString(16).padStart(8, '0')}`;

function bytesText(n: number): string {
  return n < 1024 ? `${n} B` : n < 2 ** 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 2 ** 20).toFixed(1)} MiB`;
}

function readText(r: { read_bytes: readonly (readonly [number, number])[] | 'unknown'; size: number }): string {
  if (r.read_bytes === 'unknown') return 'bytes read: unknown';
  const n = r.read_bytes.reduce((a, [, s]) => a + s, 0);
  return n === r.size ? 'all read' : `${n} of ${r.size} bytes read in ${r.read_bytes.length} sub-ranges`;
}

function infoText(file: string, c: Capture): string {
  const m: Manifest = c.manifest;
  const L: string[] = [];
  const gen = PROCESSORS[m.target.mcpu];
  L.push(`${file}: gcncap ${m.version.major}.${m.version.minor}${m.redacted ? ', redacted' : ''}`);
  L.push(`target: ${m.target.mcpu} (${GEN_NAMES[gen]}), wave${m.target.wave64 ? 64 : 32}`);
  const d = m.dispatch;
  if (d.kind === 'registers') {
    const r = d.registers;
    const pgm = (BigInt(r.COMPUTE_PGM_HI) << 40n) | (BigInt(r.COMPUTE_PGM_LO) << 8n);
    L.push(`dispatch: registers, program at 0x${pgm.toString(16)}`);
    L.push(
      `  grid ${d.grid.join('x')} groups of ${r.COMPUTE_NUM_THREAD_X}x${r.COMPUTE_NUM_THREAD_Y}x${r.COMPUTE_NUM_THREAD_Z} threads`,
    );
    L.push(
      `  RSRC1 ${hex(r.COMPUTE_PGM_RSRC1)}  RSRC2 ${hex(r.COMPUTE_PGM_RSRC2)}${r.COMPUTE_PGM_RSRC3 !== undefined ? `  RSRC3 ${hex(r.COMPUTE_PGM_RSRC3)}` : ''}`,
    );
    const userSgprs = (r.COMPUTE_PGM_RSRC2 >>> 1) & 0x1f;
    const ud = Array.from({ length: userSgprs }, (_, i) => hex(r[`COMPUTE_USER_DATA_${i}` as keyof typeof r] ?? 0));
    L.push(`  user data (${userSgprs}): ${ud.join(' ') || '-'}`);
    L.push(`  sh_registers: ${Object.keys(d.sh_registers).length} raw values`);
  } else if (d.kind === 'pm4') {
    L.push(
      `dispatch: PM4 stream, ${bytesText(d.size)}, grid ${isUnavailable(d.grid) ? `unavailable (${d.grid.unavailable})` : d.grid.join('x')}`,
    );
  } else {
    L.push(
      `dispatch: program at ${d.entry}${d.end !== undefined ? ` returning at ${d.end}` : ''}, exec ${d.initial.exec}, ${d.initial.sgprs.length} SGPRs, ${d.initial.vgprs.length} VGPRs`,
    );
  }
  const total = m.memory.reduce((a, r) => a + r.size, 0);
  L.push(`memory: ${m.memory.length} ranges, ${bytesText(total)}`);
  for (const r of m.memory) {
    const data = r.blob === null ? `unavailable (${r.unavailable ?? ''})` : readText(r);
    L.push(
      `  ${r.address.padEnd(14)} ${bytesText(r.size).padStart(9)}  ${r.access.padEnd(9)}  ${r.origin.kind}${r.origin.detail ? `: ${r.origin.detail}` : ''}; ${data}`,
    );
  }
  if (m.descriptors?.length) {
    L.push(`descriptors: ${m.descriptors.length}`);
    for (const x of m.descriptors) {
      const at =
        'user_data' in x.at ? `user data ${x.at.user_data}` : 'sgpr' in x.at ? `initial s${x.at.sgpr}` : x.at.address;
      L.push(`  ${x.kind.padEnd(7)} ${at}${x.name ? ` '${x.name}'` : ''}: ${x.words.map(hex).join(' ')}`);
    }
  }
  if (isUnavailable(m.expected)) {
    L.push(
      `expected: unavailable (${m.expected.unavailable})${m.expected.requested ? `; requested: ${m.expected.requested}` : ''}`,
    );
  } else {
    const s = m.expected.source;
    L.push(
      `expected: from ${s.kind === 'hardware' ? `hardware${s.detail ? ` (${s.detail})` : ''}` : `${s.tool} at ${s.revision}`}, ${m.expected.memory.length} ranges`,
    );
    for (const r of m.expected.memory) {
      const cmp = r.compare.kind === 'exact' ? 'exact' : `within ${r.compare.ulps} ulp of ${r.compare.element}`;
      L.push(
        `  ${r.address.padEnd(14)} ${bytesText(r.size).padStart(9)}  ${cmp}${r.blob === null ? `; unavailable (${r.unavailable ?? ''})` : ''}`,
      );
    }
    if (m.expected.registers) L.push(`  registers: ${Object.keys(m.expected.registers).join(', ')}`);
  }
  L.push(
    `provenance: ${m.provenance.recorder}${m.provenance.notes ? `\n  ${m.provenance.notes.trim().replace(/\n/g, '\n  ')}` : ''}`,
  );
  return `${L.join('\n')}\n`;
}
