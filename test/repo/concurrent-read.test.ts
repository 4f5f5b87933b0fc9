import { chmod, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { NotRegularFileError, readRegularFile, readRegularFileSync, TooLarge } from '../../src/read-regular-file.js';
import { scanRepositories } from '../../src/repo/scan.js';

describe('the scan reports as if it read files in path order (issue 25 item 4; read one after another since issue 41)', () => {
  it('notes and gaps come in path order whichever read ends first', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tma-concurrent-'));
    await mkdir(join(root, 'a'));
    // Big and small files interleaved, so reads end out of order; every tenth a binary (a gap: JSON is judged).
    for (let i = 0; i < 120; i++) {
      const name = join(root, 'a', `f${String(i).padStart(3, '0')}.json`);
      await writeFile(name, i % 10 === 0 ? Buffer.from([0, 1, 2]) : JSON.stringify({ i, pad: 'x'.repeat(i % 3 === 0 ? 200_000 : 10) }));
    }
    await symlink('/etc/hostname', join(root, 'a', 'f050-out.json'));
    const scan = await scanRepositories([root]);
    const names = scan.incomplete.map((item) => item.resource.replace(/^.*\/a\//, ''));
    expect(names).toEqual([...names].sort());
    expect(scan.incomplete.filter((item) => item.reason.includes('a NUL byte'))).toHaveLength(12);
    expect(names).toContain('f050-out.json');
  });

  it('a file that cannot be read is a gap, in its place', async () => {
    if (process.getuid?.() === 0) return; // root reads anything
    const root = await mkdtemp(join(tmpdir(), 'tma-concurrent-'));
    await writeFile(join(root, 'b.json'), '{}');
    await writeFile(join(root, 'a.json'), '{}');
    await chmod(join(root, 'a.json'), 0o000);
    const scan = await scanRepositories([root]);
    expect(scan.incomplete.map((entry) => entry.reason)).toEqual(['could not be read (permission denied); the file was not checked']);
  });
});

describe('readRegularFile with a size bound', () => {
  it('reads the whole file in one go, and over the bound gives the size instead', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tma-read-'));
    const path = join(dir, 'f.txt');
    await writeFile(path, 'x'.repeat(100_000));
    expect((await readRegularFile(path)).length).toBe(100_000);
    expect((await readRegularFile(path, 100_000) as Buffer).toString()).toBe('x'.repeat(100_000));
    const over = await readRegularFile(path, 99_999);
    expect(over).toBeInstanceOf(TooLarge);
    expect((over as TooLarge).size).toBe(100_000);
    await writeFile(path, '');
    expect((await readRegularFile(path, 10) as Buffer).length).toBe(0);
  });

  // Issue 33: the scan opens each file refusing a link, instead of an lstat before every open.
  it.skipIf(process.platform === 'win32')('without following links, a link is refused by the open itself and a file is read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tma-read-'));
    await writeFile(join(dir, 'f.txt'), 'file');
    await symlink(join(dir, 'f.txt'), join(dir, 'link.txt'));
    expect(((await readRegularFile(join(dir, 'f.txt'), 10, { followLinks: false })) as Buffer).toString()).toBe('file');
    await expect(readRegularFile(join(dir, 'link.txt'), 10, { followLinks: false })).rejects.toMatchObject({ code: 'ELOOP' });
    expect(((await readRegularFile(join(dir, 'link.txt'), 10)) as Buffer).toString()).toBe('file');
  });
});

describe('readRegularFileSync (issue 41: the scan reads each file in four calls, open, fstat, read, close)', () => {
  it('reads a file whole, gives the size over the bound, refuses a link without following it, and a named pipe', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tma-read-sync-'));
    await writeFile(join(dir, 'f.txt'), 'x'.repeat(70_000));
    await writeFile(join(dir, 'empty.txt'), '');
    expect((readRegularFileSync(join(dir, 'f.txt'), 70_000) as Buffer).toString()).toBe('x'.repeat(70_000));
    expect((readRegularFileSync(join(dir, 'empty.txt'), 10) as Buffer).length).toBe(0);
    expect((readRegularFileSync(join(dir, 'f.txt'), 69_999) as TooLarge).size).toBe(70_000);
    if (process.platform === 'win32') return;
    await symlink(join(dir, 'f.txt'), join(dir, 'link.txt'));
    expect(() => readRegularFileSync(join(dir, 'link.txt'), 100_000, { followLinks: false })).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    expect((readRegularFileSync(join(dir, 'link.txt'), 100_000) as Buffer).length).toBe(70_000);
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(() => readRegularFileSync(join(dir, 'pipe'), 10)).toThrow(NotRegularFileError);
  });
});
