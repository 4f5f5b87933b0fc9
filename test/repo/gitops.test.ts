import { describe, expect, test } from 'vitest';
import { analyzeEntityFile, analyzeMappingConfig } from '../../src/repo/gitops.js';
import { SourceSyntaxError, sourceText } from '../../src/repo/source-text.js';
import { parseYaml } from '../../src/repo/yaml-tree.js';
import { brief, context, judged } from './helpers.js';
import { buildTeamDirectory } from '../../src/catalog/teams.js';

const yamlAt = (path: string, text: string) => parseYaml(sourceText(path, text));

describe('GitOps entity files (port.yml)', () => {
  test('a top-level team holds titles; relations.team, properties.team and file:// values do not count', () => {
    const { findings } = judged(analyzeEntityFile, 
      yamlAt(
        'svc/port.yml',
        `- identifier: checkout
  blueprint: service
  team: Platform Team
  relations:
    team: Payments
- identifier: ledger
  blueprint: service
  properties:
    team: Payments
    readme: file://README.md
  team:
    - Payments
    - sre_oncall
- identifier: docs
  blueprint: service
  team: file://TEAM
`,
      ),
      context(),
    );
    expect(brief(findings)).toEqual([
      { at: 'svc/port.yml:3', category: 'external-ownership', rewrite: 'team: platform', verdict: 'breaks' },
      { at: 'svc/port.yml:11', category: 'external-ownership', rewrite: 'team:\n    - payments\n    - sre_oncall', verdict: 'breaks' },
    ]);
    expect(findings[0]!.resource.title).toBe('entity checkout');
  });

  test('a title written with YAML escapes ("…\\"…\\\\…", \'…\'\'…\') is rewritten in the same quotes, not left as it was', () => {
    const teams = buildTeamDirectory([{ name: 'Ops "Night" \\ Crew', identifier: 'ops_night' }, { name: "Ops' Day", identifier: 'ops_day' }], []);
    const { findings } = judged(analyzeEntityFile, 
      yamlAt('svc/port.yml', `identifier: c\nblueprint: service\nteam: ["Ops \\"Night\\" \\\\ Crew", 'Ops'' Day']\n`),
      context({ teams }),
    );
    expect(brief(findings)).toEqual([{ at: 'svc/port.yml:3', category: 'external-ownership', rewrite: `team: ["ops_night", 'ops_day']`, verdict: 'breaks' }]);
  });

  test('invalid YAML reports js-yaml line and column', () => {
    try {
      yamlAt('port.yml', 'identifier: x\nteam: [Payments\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SourceSyntaxError);
      expect((error as SourceSyntaxError).line).toBe(3);
    }
  });
});

describe('mapping configs (port-app-config.yml)', () => {
  test('a mapping that sets no team is checked, not listed; a team expression with a title literal gets a rewrite', () => {
    const { findings } = judged(analyzeMappingConfig, 
      yamlAt(
        '.github/port-app-config.yml',
        `deleteDependentEntities: true
resources:
  - kind: repository
    selector:
      query: 'true'
    port:
      entity:
        mappings:
          identifier: .name
          blueprint: '"service"'
          team: '"Payments"'
  - kind: pull-request
    port:
      entity:
        mappings:
          identifier: .id
          blueprint: '"pr"'
          relations:
            team: .team
  - kind: team
    port:
      entity:
        mappings:
          - identifier: .slug
            blueprint: '"githubTeam"'
            team: .name
`,
      ),
      context(),
    );
    expect(brief(findings)).toEqual([
      { at: '.github/port-app-config.yml:11', category: 'integration-mapping', rewrite: `team: '"payments"'`, verdict: 'breaks' },
      { at: '.github/port-app-config.yml:26', category: 'integration-mapping', verdict: 'review' },
    ]);
    expect(findings[1]!.evidence).toBe('team: .name');
    expect(findings.every((f) => f.note?.includes('repository file'))).toBe(true);
  });

  test("an integration's default mappings (no team, relations named team to other blueprints) give no finding", () => {
    const { findings } = judged(analyzeMappingConfig, 
      yamlAt(
        'integrations/sentry/.port/resources/port-app-config.yml',
        `createMissingRelatedEntities: true
deleteDependentEntities: true
resources:
  - kind: project
    selector:
      query: 'true'
    port:
      entity:
        mappings:
          identifier: .slug
          title: .name
          blueprint: '"sentryProject"'
          properties:
            dateCreated: .dateCreated
          relations:
            team: '[.teams[].slug]'
  - kind: issue
    port:
      entity:
        mappings:
          - identifier: .id
            blueprint: '"sentryIssue"'
            relations:
              project: .project.slug
`,
      ),
      context(),
    );
    expect(findings).toEqual([]);
  });
});

describe('a mapping that sets properties.$team', () => {
  test('is judged at its line like team, with the rewrite in place', () => {
    const { findings } = judged(analyzeMappingConfig, 
      yamlAt('.github/port-app-config.yml', `resources:\n  - kind: repository\n    port:\n      entity:\n        mappings:\n          identifier: .name\n          blueprint: '"service"'\n          properties:\n            $team: '"Payments"'\n`),
      context(),
    );
    expect(brief(findings)).toEqual([{ at: '.github/port-app-config.yml:9', category: 'integration-mapping', rewrite: `$team: '"payments"'`, verdict: 'breaks' }]);
  });
});
