/**
 * The yardstick of `bench:scale`: read a snapshot file and parse it as JSON, nothing else. Any
 * analysis reads and parses its input at least once, so its time and peak RSS are the floor.
 */
import { readFileSync } from 'node:fs';

const path = process.argv[2];
if (!path) throw new Error('usage: parse-snapshot FILE');
const document = JSON.parse(readFileSync(path, 'utf8')) as { entities?: Record<string, unknown[]> };
process.stdout.write(`${Object.values(document.entities ?? {}).reduce((n, list) => n + list.length, 0)} entities\n`);
