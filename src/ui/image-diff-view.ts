/**
 * An image in an expected range as three pictures side by side: what the capture expects, what
 * the run left, and the difference (black where equal, magenta where a texel differs), each a
 * canvas scaled up nearest-neighbour, labelled, and reachable with the keyboard. The count of
 * differing texels is in text beside them: the colour is never the only carrier of meaning.
 */
import { el } from './dom.ts';
import type { ImageComparison, ImagePicture } from './worker-api.ts';

/** Pictures are drawn at least this many CSS pixels wide (small images are scaled up by whole factors). */
const MIN_CSS_WIDTH = 128;

function canvasOf(picture: ImagePicture, label: string, testid: string): HTMLCanvasElement {
  const canvas = el('canvas', {
    width: String(picture.width),
    height: String(picture.height),
    class: 'picture',
    role: 'img',
    tabindex: '0',
    'aria-label': label,
    'data-testid': testid,
  });
  const scale = Math.max(1, Math.ceil(MIN_CSS_WIDTH / picture.width));
  canvas.style.width = `${picture.width * scale}px`;
  canvas.style.height = `${picture.height * scale}px`;
  const g = canvas.getContext('2d');
  if (g) g.putImageData(new ImageData(new Uint8ClampedArray(picture.rgba), picture.width, picture.height), 0, 0);
  return canvas;
}

function pictureFigure(picture: ImagePicture | null, title: string, label: string, testid: string): HTMLElement {
  return el(
    'figure',
    { class: 'picture-cell' },
    picture ? canvasOf(picture, label, testid) : el('p', { class: 'problem', text: 'not there' }),
    el('figcaption', { text: title }),
  );
}

/** One image of a range; `run` names the run ("interpreter", "device") in the labels. */
export function renderImageComparison(c: ImageComparison, run: string): HTMLElement {
  const name = c.name ? `'${c.name}'` : 'an image';
  const what = `${name} (T# at ${c.where}): ${c.width}×${c.height} ${c.format}, ${c.typeName}, ${c.mode}${
    c.levels > 1 || c.slices > 1 ? `; level 0, slice 0 of ${c.levels} levels × ${c.slices} slices` : ''
  }`;
  const total = c.width * c.height;
  const count =
    c.differingTexels === null
      ? 'not compared'
      : `${c.differingTexels} of ${total} texel${total === 1 ? '' : 's'} differ${
          c.outside
            ? `; ${c.outside} differing element${c.outside === 1 ? '' : 's'} outside the image (row padding)`
            : ''
        }`;
  return el(
    'figure',
    {
      class: 'image-diff',
      'data-testid': 'image-diff',
      'data-differing-texels': c.differingTexels === null ? undefined : String(c.differingTexels),
    },
    el('figcaption', { text: what }),
    c.error ? el('p', { class: 'problem', text: `the image cannot be shown: ${c.error}` }) : null,
    el(
      'div',
      { class: 'pictures' },
      pictureFigure(c.expected, 'expected', `${name}, expected`, 'image-expected'),
      pictureFigure(c.got, `got (${run})`, `${name}, what the ${run} left`, 'image-got'),
      pictureFigure(
        c.difference,
        'difference: black equal, magenta differs',
        `${name}, difference: ${count}`,
        'image-difference',
      ),
    ),
    el('p', { 'data-testid': 'image-differing', text: `difference: ${count}` }),
  );
}
