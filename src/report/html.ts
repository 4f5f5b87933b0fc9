import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { PACKAGE_ROOT } from '../package-root.js';
import type { Report } from '../model/finding.js';
import { cspHash, jsonForScript } from './escape.js';
import { buildReportView, type RenderMeta } from './view-model.js';
import { htmlControlsEscaped, markupEscape, workflowCommandsDisarmed } from '../terminal-text.js';

export type { RenderMeta } from './view-model.js';

const TEMPLATES = new URL('templates/', PACKAGE_ROOT);

/** Our own instance: no global helpers or partials leak in or out. */
const handlebars = Handlebars.create();

interface Assets {
  template: Handlebars.TemplateDelegate;
  css: string;
  js: string;
  /** The page's only policy: its own inline style and script, by hash; nothing from anywhere. */
  csp: string;
}

let assets: Assets | undefined;

function loadAssets(): Assets {
  if (!assets) {
    const read = (name: string) => readFileSync(new URL(name, TEMPLATES), 'utf8');
    const css = read('report.css');
    const js = read('report.js');
    const csp = [
      "default-src 'none'",
      `script-src ${cspHash(js)}`,
      `style-src ${cspHash(css)}`,
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    // strict: a key the view model forgot is an error, not a silently empty cell.
    assets = { template: handlebars.compile(read('report.hbs'), { strict: true }), css, js, csp };
  }
  return assets;
}

/**
 * A pure function of the report and the run's metadata: one self-contained HTML file. The script
 * and stylesheet are static, so their CSP hashes are computed once; the findings travel as JSON in a
 * non-executable script element and the page's script builds the rows with textContent only.
 */
export function renderHtml(report: Report, meta: RenderMeta): string {
  const { template, css, js, csp } = loadAssets();
  const view = buildReportView(report, meta);
  // Org text may hold ESC, NUL or bidi overrides: none reaches the page raw, nor a workflow command.
  return workflowCommandsDisarmed(htmlControlsEscaped(template({ ...view, css, js, csp, dataJson: jsonForScript(view.client) })), markupEscape);
}
