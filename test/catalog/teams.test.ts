import { describe, expect, it } from 'vitest';
import { buildTeamDirectory, classifyTeamValue, partitionTeamValues, translateTeamValues } from '../../src/catalog/teams.js';
import { catalogOf, org } from '../support/rule-tester.js';

describe('team directory', () => {
  it('takes the identifier from the teams list first, then _team entities, then the teams map', () => {
    const directory = buildTeamDirectory(
      [{ name: 'Payments', identifier: 'payments' }, { name: 'Platform Team' }, { name: 'Data Science' }],
      [
        { identifier: 'pay_entity', title: 'Payments' },
        { identifier: 'platform', title: 'Platform Team' },
      ],
      { Payments: 'pay_map', 'Platform Team': 'plat_map', 'Data Science': 'data_science' },
    );
    expect(directory.byTitle.get('Payments')).toEqual({ title: 'Payments', identifier: 'payments', source: 'teams' });
    expect(directory.byTitle.get('Platform Team')).toEqual({ title: 'Platform Team', identifier: 'platform', source: '_team entities' });
    expect(directory.byTitle.get('Data Science')).toEqual({ title: 'Data Science', identifier: 'data_science', source: 'teams map' });
  });

  it('never invents an identifier, not even a slug of the title', () => {
    const directory = buildTeamDirectory([{ name: 'Data Science' }], []);
    expect(directory.byTitle.get('Data Science')).toEqual({ title: 'Data Science' });
    expect(directory.identifiers.size).toBe(0);
    expect(classifyTeamValue(directory, 'Data Science')).toMatchObject({ state: 'title-unknown-identifier' });
    expect(classifyTeamValue(directory, 'data_science')).toEqual({ state: 'unknown' });
    expect(classifyTeamValue(directory, 'data-science')).toEqual({ state: 'unknown' });
  });

  it('a _team entity without a title is a known identifier only', () => {
    const directory = buildTeamDirectory([], [{ identifier: 'ml' }]);
    expect(directory.byTitle.size).toBe(0);
    expect(classifyTeamValue(directory, 'ml')).toEqual({ state: 'identifier' });
  });

  it('classifies titles, identifiers and a title equal to its identifier', () => {
    const directory = buildTeamDirectory([{ name: 'Payments', identifier: 'payments' }, { name: 'sre', identifier: 'sre' }], []);
    expect(classifyTeamValue(directory, 'Payments')).toMatchObject({ state: 'title', identifier: 'payments' });
    expect(classifyTeamValue(directory, 'payments')).toEqual({ state: 'identifier' });
    expect(classifyTeamValue(directory, 'sre')).toEqual({ state: 'identifier' });
    expect(translateTeamValues(directory, ['Payments', 'sre', 'Gone'])).toEqual(['payments', 'sre', 'Gone']);
  });

  it('partitions a list into titles, titles without identifier, identifiers and unknown, and translates it in order', () => {
    const directory = buildTeamDirectory([{ name: 'Payments', identifier: 'payments' }, { name: 'sre', identifier: 'sre' }, { name: 'Data Science' }], []);
    expect(partitionTeamValues(directory, ['Payments', 'sre', 'Data Science', 'Gone', 'payments', 'Payments'])).toEqual({
      titles: ['Payments', 'Payments'],
      pendingTitles: ['Data Science'],
      identifiers: ['sre', 'payments'],
      unknown: ['Gone'],
      translated: ['payments', 'sre', 'Data Science', 'Gone', 'payments', 'payments'],
    });
    expect(partitionTeamValues(directory, [])).toEqual({ titles: [], pendingTitles: [], identifiers: [], unknown: [], translated: [] });
  });

  it('buildCatalog reads the _team entities of the snapshot and the teams map option', () => {
    const snapshot = org({ teams: [{ name: 'Payments' }, { name: 'Data Science' }], entities: { _team: [{ identifier: 'payments', title: 'Payments' }] } });
    expect(catalogOf(snapshot).teams.byTitle.get('Payments')?.identifier).toBe('payments');
    expect(catalogOf(snapshot).teams.byTitle.get('Data Science')?.identifier).toBeUndefined();
    expect(catalogOf(snapshot, { 'Data Science': 'ds' }).teams.byTitle.get('Data Science')?.identifier).toBe('ds');
  });
});
