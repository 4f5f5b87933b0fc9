import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { REDACTED, redactSnapshot } from '../../src/sources/redact.js';
import { fetchLiveSnapshot } from '../../src/sources/live.js';
import { generateSyntheticOrg } from '../../bench/synthetic-org.js';
import { withSandbox } from './harness.js';
import { sandboxClient } from '../sandbox/sandbox-client.js';

const GITHUB_TOKEN = `ghp_${'a1B2'.repeat(9)}`;

/**
 * A synthetic org (more list items than one slice of the redaction) with secrets where the live
 * fetch meets them: in actions, pages and blueprints, in permission records, under a blueprint
 * whose identifier reads like a secret's name, and in the small lists redacted at the end.
 */
function orgWithSecrets(): OrgSnapshot {
  const org = generateSyntheticOrg({ blueprints: 60, actions: 450, pages: 230 });
  const actions = org.actions as JsonObject[];
  actions[3] = { ...actions[3], invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example/run?token=abc123', headers: { Authorization: 'Bearer xyz' } } };
  actions[420] = { ...actions[420], description: `uses ${GITHUB_TOKEN}` };
  const pages = org.pages as JsonObject[];
  pages[210] = { ...pages[210], widgets: [{ id: 'w', type: 'iframe-widget', url: 'https://deploy:hunter2@dash.example/x' }] };
  const blueprints = org.blueprints as JsonObject[];
  blueprints.push({ identifier: 'api_token', title: 'Tokens', schema: { properties: {} }, relations: {}, webhook: { apiKey: 'bp-key' } });
  org.blueprintPermissions = { ...org.blueprintPermissions, api_token: { entities: { register: { roles: ['Admin'], users: [], teams: [] } }, token: 'perm-secret' } };
  const [firstAction] = Object.keys(org.actionPermissions ?? {});
  org.actionPermissions = { ...org.actionPermissions, [firstAction!]: { ...org.actionPermissions![firstAction!], execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [`"${GITHUB_TOKEN}" != null`] } } } };
  org.webhooks = [{ ...(org.webhooks as JsonObject[])[0], security: { secret: 'hook-secret' } }];
  return org;
}

describe('the live fetch redacts the large lists and the permissions as they arrive', () => {
  it('gives the snapshot and the note one pass at the end gives', async () => {
    const served = orgWithSecrets();
    await withSandbox({ snapshot: served }, async (sandbox) => {
      const client = sandboxClient(sandbox, { concurrency: 8 });
      const notes: string[] = [];
      const fetched = await fetchLiveSnapshot(client, () => {}, notes);
      const expectedNotes: string[] = [];
      const expected = redactSnapshot(served, expectedNotes);
      for (const key of ['blueprints', 'actions', 'pages', 'blueprintPermissions', 'actionPermissions', 'pagePermissions', 'webhooks', 'integrations'] as const) {
        expect(fetched[key], key).toEqual(expected[key]);
      }
      expect(notes).toEqual(expectedNotes);
      expect(notes.join('\n')).toContain('2 GitHub tokens');
      const text = JSON.stringify(fetched);
      for (const secret of ['abc123', 'Bearer xyz', GITHUB_TOKEN, 'hunter2', 'bp-key', 'perm-secret', 'hook-secret']) expect(text).not.toContain(secret);
      expect(text).toContain(REDACTED);
    });
  });
});
