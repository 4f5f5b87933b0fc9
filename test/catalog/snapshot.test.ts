import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { validateSnapshot } from '../../src/sources/validate-snapshot.js';
import { org } from '../support/rule-tester.js';

const FILE = 'org.json';

function problem(document: unknown): InputError {
  try {
    validateSnapshot(document, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    const message = (error as InputError).message;
    expect(message.startsWith(`${FILE}: `), message).toBe(true);
    expect(message, 'one line').not.toContain('\n');
    return error as InputError;
  }
  throw new Error('expected an InputError');
}

describe('validateSnapshot', () => {
  it('accepts a minimal snapshot and keeps unknown extra fields, top-level and nested', () => {
    const document = { ...org({ blueprints: [{ identifier: 'service', futureField: { x: 1 } }] }), fetchedWith: 'cli 9.9', teams: [{ name: 'A', extra: true }] };
    const snapshot = validateSnapshot(document, FILE);
    expect(snapshot.fetchedWith).toBe('cli 9.9');
    expect(snapshot.blueprints[0]?.futureField).toEqual({ x: 1 });
    expect(snapshot.teams?.[0]?.extra).toBe(true);
  });

  it('rejects something other than an object', () => {
    expect(problem([]).message).toContain('expected an org-snapshot/1 JSON object');
    expect(problem('text').message).toContain('org-snapshot/1');
  });

  it('rejects a missing or wrong format, naming the field and what was expected', () => {
    const { format: _format, ...rest } = org();
    expect(problem(rest).message).toBe(`${FILE}: field "format": expected "org-snapshot/1", got nothing (the field is missing)`);
    expect(problem({ ...org(), format: 'org-snapshot/2' }).message).toBe(`${FILE}: field "format": expected "org-snapshot/1", got string "org-snapshot/2"`);
  });

  it('rejects a missing required field', () => {
    const { blueprints: _b, ...rest } = org();
    expect(problem(rest).message).toContain('field "blueprints" is missing');
    const { organization: _o, ...noOrg } = org();
    expect(problem(noOrg).message).toContain('"organization"');
  });

  it.each([
    ['blueprints', { blueprints: {} }, '"blueprints": expected an array, got an object'],
    ['a blueprint without identifier', { blueprints: [{ title: 'x' }] }, '"blueprints[0].identifier": expected a string, got nothing (the field is missing)'],
    ['organization.name', { organization: { id: 'o', name: 3 } }, '"organization.name": expected a string, got number 3'],
    ['actions', { actions: 'none' }, '"actions": expected an array, got string "none"'],
    ['actionPermissions', { actionPermissions: [] }, '"actionPermissions": expected an object keyed by identifier, got an array'],
    ['a page permission', { pagePermissions: { home: [] } }, '"pagePermissions.home": expected an object, got an array'],
    ['teams[].name', { teams: [{ name: 'A' }, { identifier: 'b' }] }, '"teams[1].name": expected a string, got nothing (the field is missing)'],
    ['an entity', { entities: { service: [{ identifier: 1 }] } }, '"entities.service[0].identifier": expected a string, got number 1'],
    ['incomplete', { incomplete: [{ resource: 'x' }] }, '"incomplete[0].reason": expected a string, got nothing (the field is missing)'],
    ['integrations', { integrations: [1] }, '"integrations[0]": expected an object, got number 1'],
  ])('rejects a field of the wrong type: %s', (_name, parts, expected) => {
    expect(problem({ ...org(), ...parts }).message).toBe(`${FILE}: field ${expected}`);
  });
});

describe('readSnapshotFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-test-'));

  it('names the file when the JSON is bad', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"format": "org-snapshot/1",');
    const error = await readSnapshotFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the snapshot is not valid JSON`));
    expect((error as Error).message).not.toContain('\n');
  });

  it('names the file when it does not exist', async () => {
    await expect(readSnapshotFile(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read the snapshot: no such file/);
  });

  it('validates what it reads', async () => {
    const path = join(dir, 'wrong.json');
    writeFileSync(path, JSON.stringify({ ...org(), blueprints: 'x' }));
    await expect(readSnapshotFile(path)).rejects.toThrow(`${path}: field "blueprints": expected an array`);
  });

  it('reads the demo org', async () => {
    const snapshot = await readSnapshotFile('fixtures/demo-org.json');
    expect(snapshot.format).toBe('org-snapshot/1');
  });
});
