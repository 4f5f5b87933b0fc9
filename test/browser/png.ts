import { inflateSync } from 'node:zlib';

/** A decoded image: RGBA, 8 bits per channel, row after row. */
export interface Image {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * Decode the PNGs Chromium writes (8-bit greyscale, RGB or RGBA, not interlaced): enough for
 * comparing screenshots, without a dependency.
 */
export function decodePng(buffer: Buffer): Image {
  if (buffer.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[colour ?? -1] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour}, interlace ${interlace})`);
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const corner = x >= channels && y > 0 ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      pixels[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 4; c++) {
      rgba[i * 4 + c] = c === 3 && channels < 4 ? 255 : (pixels[i * channels + Math.min(c, channels - 1)] ?? 0);
    }
  }
  return { width, height, rgba };
}

/**
 * How different two images are, robust to font antialiasing and a pixel of text shift: both are
 * averaged over blocks of `block` × `block` pixels, and the answer is the share of inked blocks
 * (not plain light background in either image) whose mean colour differs by more than `threshold`
 * (0..255) in any channel. Counting only inked blocks keeps a lost chart from hiding in white space.
 */
// A block whose every channel averages above this is plain (light) background.
const BACKGROUND = 250;

export function blockDifference(a: Image, b: Image, block = 16, threshold = 48): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  const columns = Math.ceil(a.width / block);
  const rows = Math.ceil(a.height / block);
  let differing = 0;
  let inkedBlocks = 0;
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      const sums = [0, 0, 0, 0, 0, 0];
      let count = 0;
      for (let y = by * block; y < Math.min(a.height, (by + 1) * block); y++) {
        for (let x = bx * block; x < Math.min(a.width, (bx + 1) * block); x++) {
          const i = (y * a.width + x) * 4;
          for (let c = 0; c < 3; c++) {
            sums[c] = (sums[c] ?? 0) + (a.rgba[i + c] ?? 0);
            sums[c + 3] = (sums[c + 3] ?? 0) + (b.rgba[i + c] ?? 0);
          }
          count++;
        }
      }
      const inked = [0, 1, 2, 3, 4, 5].some((c) => (sums[c] ?? 0) / count < BACKGROUND);
      if (!inked) continue;
      inkedBlocks++;
      if ([0, 1, 2].some((c) => Math.abs((sums[c] ?? 0) - (sums[c + 3] ?? 0)) / count > threshold)) differing++;
    }
  }
  return inkedBlocks === 0 ? 0 : differing / inkedBlocks;
}
