/**
 * Where captures come from: the ones bundled with the app (public/captures/index.json), a URL
 * to a file served with the app (`?capture=captures/NAME.gcncap`), the file picker, and a file
 * dropped on the page. Every failure is a `LoadError` that says what could not be had.
 */

/** One entry of public/captures/index.json. */
export interface BundledCapture {
  /** Path relative to the app ("captures/gfx1030-buffer-copy.gcncap"). */
  readonly file: string;
  readonly title: string;
  /** The capture the app opens when no other is asked for. */
  readonly default?: boolean;
}

/** A capture's bytes and the name to show for it. */
export interface LoadedFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export class LoadError extends Error {
  override readonly name = 'LoadError';
}

export const BUNDLED_INDEX = 'captures/index.json';

/** The bundled captures, in the index's order. */
export async function bundledCaptures(): Promise<BundledCapture[]> {
  const res = await fetch(BUNDLED_INDEX).catch((e: unknown) => {
    throw new LoadError(`${BUNDLED_INDEX} could not be fetched: ${e instanceof Error ? e.message : String(e)}`);
  });
  if (!res.ok) throw new LoadError(`${BUNDLED_INDEX}: HTTP ${res.status} ${res.statusText}`);
  const list = (await res.json()) as unknown;
  if (!Array.isArray(list) || !list.every((x) => typeof x?.file === 'string' && typeof x?.title === 'string'))
    throw new LoadError(`${BUNDLED_INDEX} is not a list of {file, title}`);
  return list as BundledCapture[];
}

/** The capture to open first: the index's default, else its first entry. */
export function defaultCapture(list: readonly BundledCapture[]): BundledCapture | undefined {
  return list.find((c) => c.default) ?? list[0];
}

/**
 * Fetches a file served with the app. Only same-origin paths are accepted: `?capture=` names a
 * file next to the app, never a page elsewhere.
 */
export async function fetchServed(path: string): Promise<LoadedFile> {
  let url: URL;
  try {
    url = new URL(path, document.baseURI);
  } catch {
    throw new LoadError(`'${path}' is not a path to a file`);
  }
  if (url.origin !== location.origin)
    throw new LoadError(`'${path}' is not served with the app (only files from ${location.origin} are opened)`);
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new LoadError(`${path} could not be fetched: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!res.ok) throw new LoadError(`${path}: HTTP ${res.status} ${res.statusText || ''}`.trim());
  // A development server answers a missing file with the app's page (its fallback): not a capture.
  if ((res.headers.get('content-type') ?? '').startsWith('text/html'))
    throw new LoadError(`${path}: not found (the server sent a web page in its place)`);
  const name = decodeURIComponent(url.pathname.split('/').pop() || path);
  return { name, bytes: new Uint8Array(await res.arrayBuffer()) };
}

export async function readLocalFile(file: File): Promise<LoadedFile> {
  try {
    return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  } catch (e) {
    throw new LoadError(`${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Opens a file dropped anywhere on `target`; while a file is dragged over it, `target` has the
 * `dragging` class (and `indicator` says so in words).
 */
export function acceptDrops(target: HTMLElement, indicator: HTMLElement, open: (file: File) => void): void {
  let depth = 0;
  const hasFiles = (e: DragEvent): boolean => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
  const show = (on: boolean): void => {
    target.classList.toggle('dragging', on);
    indicator.hidden = !on;
  };
  target.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    show(true);
  });
  target.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = 'copy';
  });
  target.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) show(false);
  });
  target.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    show(false);
    const f = e.dataTransfer!.files[0];
    if (f) open(f);
  });
}
