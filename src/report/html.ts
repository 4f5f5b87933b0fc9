import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { PACKAGE_ROOT } from '../package-root.js';
import type { Report } from '../model/finding.js';
import { buildReportView, type RenderMeta } from './view-model.js';

const TEMPLATES = new URL('templates/', PACKAGE_ROOT);

/** Our own instance: no global helpers or partials leak in or out. */
const handlebars = Handlebars.create();

let compiled: Handlebars.TemplateDelegate | undefined;

function template(): Handlebars.TemplateDelegate {
  if (!compiled) {
    const css = readFileSync(new URL('report.css', TEMPLATES), 'utf8');
    handlebars.registerPartial('css', css);
    // strict: a key the view model forgot is an error, not a silently empty cell.
    compiled = handlebars.compile(readFileSync(new URL('report.hbs', TEMPLATES), 'utf8'), { strict: true });
  }
  return compiled;
}

/** A pure function of the report and the run's metadata: one self-contained HTML file. */
export function renderHtml(report: Report, meta: RenderMeta): string {
  return template()(buildReportView(report, meta));
}
