import { InvalidArgumentError } from 'commander';
import { MAX_FILE_BYTES } from './scan.js';

/** The largest `--max-file-size`: a file is read into memory whole, once. */
const LARGEST = 1024 * 1024 * 1024;
const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, kb: 1024, m: 1024 * 1024, mb: 1024 * 1024, g: LARGEST, gb: LARGEST };

export const MAX_FILE_SIZE_HELP = `the largest repository file read (default ${MAX_FILE_BYTES / (1024 * 1024)}MB; bytes, or with KB, MB or GB); a larger file the scan would judge is named and the run is incomplete (exit 3), never skipped`;

/** `--max-file-size 20MB`: bytes, from a whole number with an optional unit; commander turns the error into one line (exit 2). */
export function parseMaxFileSize(value: string): number {
  const match = /^(\d{1,10})\s*([kmg]b?)?$/i.exec(value.trim());
  const bytes = match ? Number(match[1]) * UNITS[(match[2] ?? '').toLowerCase()]! : Number.NaN;
  if (!(bytes >= 1 && bytes <= LARGEST)) throw new InvalidArgumentError('give a size from 1 byte to 1GB, such as 20MB');
  return bytes;
}
