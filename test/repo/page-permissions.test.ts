import { describe, expect, test } from 'vitest';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { brief, context, judged } from './helpers.js';

describe('page permissions: read (view) and update (edit)', () => {
  test('a PATCH body that only sets who may edit the page is page permissions', () => {
    const findings = judged(analyzeJsonPayload, sourceText('api/page-perms.json', `{\n  "update": { "users": [], "teams": ["Platform Team"] }\n}`), context()).findings;
    expect(brief(findings)).toEqual([{ at: 'api/page-perms.json:2', category: 'team-permission-identifiers', rewrite: '"teams": ["platform"]', verdict: 'breaks' }]);
  });

  test('port_page_permissions: update.teams is judged like read.teams', () => {
    const findings = judged(analyzeTerraform, 
      sourceText(
        'infra/pages.tf',
        `resource "port_page_permissions" "ops" {
  page_identifier = "ops"
  read = {
    teams = ["Payments"]
  }
  update = {
    teams = ["SRE On-Call"]
  }
}`,
      ),
      context(),
    ).findings;
    expect(brief(findings)).toEqual([
      { at: 'infra/pages.tf:4', category: 'team-permission-identifiers', rewrite: 'teams = ["payments"]', verdict: 'breaks' },
      { at: 'infra/pages.tf:7', category: 'team-permission-identifiers', rewrite: 'teams = ["sre_oncall"]', verdict: 'breaks' },
    ]);
  });
});
