import { compareFindings } from '../analyze.js';
import { failsGate, policyOf } from '../gate.js';
import { fileLocation } from '../file-location.js';
import { CATEGORY_DOCS } from '../model/category-docs.js';
import { CATEGORIES, type Finding, type Report } from '../model/finding.js';
import { sarifRuleId } from './sarif.js';
import { isFileFinding, placeOf } from './work-counts.js';
import { markupEscape, workflowCommandsDisarmed } from '../terminal-text.js';
import { escapeXmlAttribute as attr, escapeXmlLine as line } from './xml.js';

/**
 * JUnit XML for CI test tabs: one testsuite per category that has findings, one testcase per
 * finding. A finding that fails the gate is a failed test; one the baseline accepts is skipped
 * (visible, marked); the rest pass. What could not be read is an errored test in its own suite.
 * Pure and clock-free: no timestamps or durations, which JUnit consumers treat as optional.
 */
export function renderJunit(report: Report): string {
  const policy = policyOf(report);
  const findings = [...report.findings].sort(compareFindings);
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;

  for (const category of CATEGORIES) {
    const mine = findings.filter((finding) => finding.category === category);
    if (mine.length === 0) continue;
    const cases = mine.map((finding) => testcase(finding, failsGate(finding, policy)));
    const suiteFailures = cases.filter((c) => c.status === 'failed').length;
    const suiteSkipped = cases.filter((c) => c.status === 'skipped').length;
    tests += cases.length;
    failures += suiteFailures;
    skipped += suiteSkipped;
    const name = `${sarifRuleId(category)}: ${CATEGORY_DOCS[category].title}`;
    suites.push(
      `  <testsuite name="${attr(name)}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="${suiteSkipped}">\n` +
        cases.map((c) => c.xml).join('') +
        '  </testsuite>\n',
    );
  }

  const errors = report.incomplete.length;
  if (errors > 0) {
    tests += errors;
    suites.push(
      `  <testsuite name="incomplete: what could not be read" tests="${errors}" failures="0" errors="${errors}" skipped="0">\n` +
        report.incomplete
          .map(
            (item) =>
              `    <testcase classname="tma.incomplete" name="${attr(item.resource)}">\n` +
              `      <error message="${attr(item.reason)}" type="incomplete">${line(item.reason)}</error>\n` +
              '    </testcase>\n',
          )
          .join('') +
        '  </testsuite>\n',
    );
  }

  const title = `teams-migration-audit: ${report.organization.name}`;
  return workflowCommandsDisarmed(
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    // The run id (report.run): every file of one run's outputs carries the same.
    (report.run ? `<!-- run ${report.run.id.replace(/[^0-9A-Za-z]/g, "")} -->\n` : '') +
    `<testsuites name="${attr(title)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n` +
    suites.join('') +
    '</testsuites>\n',
    markupEscape,
  );
}

interface Testcase {
  status: 'failed' | 'skipped' | 'passed';
  xml: string;
}

/**
 * A finding in a repository file is named by its place once (`path:line`) and carries `file` and
 * `line`, which CI test tabs turn into a link to the line; an org finding is named by its resource
 * and where in it.
 */
function caseName(finding: Finding): { name: string; place: string } {
  if (!isFileFinding(finding)) return { name: placeOf(finding), place: '' };
  const at = fileLocation(finding.location);
  if (!at) return { name: finding.location, place: ` file="${attr(finding.location)}"` };
  return { name: finding.location, place: ` file="${attr(at.path)}" line="${at.line}"` };
}

function testcase(finding: Finding, failing: boolean): Testcase {
  const { name, place } = caseName(finding);
  const details = describe(finding);
  // Every case is its opening tag, one body line (a skipped case adds its mark before it) and its closing tag.
  const [status, body]: [Testcase['status'], string] = failing
    ? ['failed', `<failure message="${attr(finding.reason)}" type="${attr(finding.verdict ?? finding.kind)}">${details}</failure>`]
    : finding.accepted
      ? ['skipped', `<skipped message="${attr(`accepted in the baseline by ${finding.accepted.by}: ${finding.accepted.reason}`)}"/>\n      <system-out>${details}</system-out>`]
      : ['passed', `<system-out>${details}</system-out>`];
  return { status, xml: `    <testcase classname="${attr(`tma.${finding.category}`)}" name="${attr(name)}"${place}>\n      ${body}\n    </testcase>\n` };
}

/** The finding's details as XML text content, one line each; a line break of a value is a reference. */
function describe(finding: Finding): string {
  const lines = [
    `id: ${finding.id}`,
    `kind: ${finding.kind}${finding.verdict ? ` (${finding.verdict})` : ''}`,
    `resource: ${finding.resource.type} ${finding.resource.identifier}${finding.resource.title ? ` (${finding.resource.title})` : ''}`,
    `location: ${finding.location}`,
    `evidence: ${finding.evidence}`,
    `why: ${finding.reason}`,
    `what to do: ${finding.suggestion}`,
  ];
  if (finding.rewrite !== undefined) lines.push(`rewrite: ${finding.rewrite}`);
  if (finding.note !== undefined) lines.push(`note: ${finding.note}`);
  return `\n${lines.map(line).join('\n')}\n`;
}
