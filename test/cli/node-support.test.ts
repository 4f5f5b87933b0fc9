import { describe, expect, it } from 'vitest';
import { olderNodeLine } from '../../src/node-support.js';
import { ENGINES_NODE } from '../../src/version.js';

describe('the one line said when Node is older than engines', () => {
  it('names the running Node and the range, on one line', () => {
    const line = olderNodeLine('20.20.2', '>=22');
    expect(line).toBe(
      'teams-migration-audit: note: Node v20.20.2 is older than this tool supports (node >=22); it may fail in ways no test covers, so use Node 22 or later\n',
    );
  });

  it('says nothing on the lines engines admits', () => {
    for (const version of ['22.0.0', '22.23.5', '24.22.3', '25.1.0']) expect(olderNodeLine(version, '>=22')).toBeUndefined();
  });

  it('compares minor and patch where the range names them', () => {
    expect(olderNodeLine('22.11.9', '>=22.12')).toContain('Node v22.11.9');
    expect(olderNodeLine('22.12.0', '>=22.12')).toBeUndefined();
  });

  it('does not guess on a range form it does not read', () => {
    expect(olderNodeLine('18.0.0', '^22 || ^24')).toBeUndefined();
    expect(olderNodeLine('18.0.0', undefined)).toBeUndefined();
  });

  it('reads the package’s own engines', () => {
    expect(ENGINES_NODE).toBe('>=22');
  });
});
