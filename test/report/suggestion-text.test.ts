import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { suggestionBesideChange, suggestionsBesideChange } from '../../src/report/suggestion-text.js';
import { buildReportView } from '../../src/report/view-model.js';

/** A value with its notation squeezed out: what "the same value in other words" shares. */
const squeezed = (text: string) => text.replace(/[\s"'{}[\]:=,]/g, '');

describe('suggestionBesideChange', () => {
  it.each([
    ['Change it to: .team | index("platform") != null', '.team | index("platform") != null', 'Write instead', ''],
    ['Use the identifier: {"property":"$team","operator":"containsAny","value":["platform"]}.', '{"property":"$team","operator":"containsAny","value":["platform"]}', 'Write instead', ''],
    ['Nothing to do in the service; in permissions kept as code write ["payments"].', '["payments"]', 'Write instead', 'Nothing to do in the service; in permissions kept as code write the value under “Write instead”.'],
    ['Nothing to do in the service; in Terraform, Pulumi or API copies of this blueprint add ownership = { type = "Direct" }.', '{"ownership":{"type":"Direct"}}', 'Ownership after', 'Nothing to do in the service; in Terraform, Pulumi or API copies of this blueprint add the value under “Ownership after”.'],
    ['Map the same value to team instead (team: [.teams[].slug]) and drop relations.owning_team.', '{"team":"[.teams[].slug]"}', 'Write instead', 'Map the same value to team instead (the value under “Write instead”) and drop relations.owning_team.'],
    ['Map the same value to team instead: "team": "{{ [.inputs.team.identifier] }}", and remove relations.owning_team.', '{"team":"{{ [.inputs.team.identifier] }}"}', 'Write instead', 'Map the same value to team instead: the value under “Write instead”, and remove relations.owning_team.'],
    ['Set ownership {type: "Direct"} on the blueprint first, then run the builder\'s Migrate data with the mapping {"entity":{"team":".relations.responsible_team"}}.', '{"entity":{"team":".relations.responsible_team"}}', 'Migrate-data mapping', 'Set ownership {type: "Direct"} on the blueprint first, then run the builder\'s Migrate data with the mapping shown under “Migrate-data mapping”.'],
  ])('%s', (suggestion, rewrite, label, shown) => {
    expect(suggestionBesideChange(suggestion, rewrite, label)).toBe(shown);
  });

  it('keeps a suggestion that does not hold the value, and one with no value beside it', () => {
    const text = 'Check that whoever reads the value takes team identifiers; then accept it in the baseline.';
    expect(suggestionBesideChange(text, '.team | join(",")', 'Write instead')).toBe(text);
    expect(suggestionBesideChange(text, undefined, 'Write instead')).toBe(text);
    // A value too short to tell from a word, or found only inside a word, is no repetition.
    expect(suggestionBesideChange('Use the payments team.', '"p"', 'Write instead')).toBe('Use the payments team.');
    expect(suggestionBesideChange('Rename superplatform first.', '"platform"', 'Write instead')).toBe('Rename superplatform first.');
  });

  it('on the demo report no card\'s suggestion repeats its Change row, and suggestions without a value are kept whole', () => {
    const golden = JSON.parse(readFileSync('fixtures/golden/demo-report.json', 'utf8')) as Report;
    const view = buildReportView(golden, { generatedAt: '2026-01-02T03:04:05.000Z', source: 'demo' });
    let withChange = 0;
    for (const [index, card] of view.client.findings.entries()) {
      const finding = golden.findings[index]!;
      if (!card.rewrite) {
        expect(card.suggestion).toBe(finding.suggestion);
        continue;
      }
      withChange++;
      expect(squeezed(card.suggestion), card.id).not.toContain(squeezed(card.rewrite));
    }
    expect(withChange).toBeGreaterThanOrEqual(30);
  });

  it('worked out once per distinct input, each input gets what suggestionBesideChange gives it', () => {
    const besideChange = suggestionsBesideChange();
    // Inputs whose parts run together into one text ("abc12" + "c123…" and "abc12c" + "123…") stay apart.
    const inputs: [string, string | undefined, string][] = [
      ['Use abc123 here.', 'abc123', 'Write instead'],
      ['Use abc123 here.', 'abc123', 'Ownership after'],
      ['c123 here.', 'abc12', 'Write instead'],
      ['123 here.', 'abc12c', 'Write instead'],
      ['Use abc123 here.', undefined, 'Write instead'],
      ['Use abc123 here.', '', 'Write instead'],
    ];
    for (const [suggestion, rewrite, label] of [...inputs, ...inputs.slice().reverse()]) {
      expect(besideChange(suggestion, rewrite, label)).toBe(suggestionBesideChange(suggestion, rewrite, label));
    }
  });
});
