import { CATEGORY_DOCS } from '../model/category-docs.js';
import type { Report } from '../model/finding.js';
import { progressSentence, sinceDay } from '../progress/progress-text.js';
import { entityUrl } from './service-links.js';

/** One row of "Fixed since" or "Checked, nothing to do". */
interface AfterRowView {
  id: string;
  category: string;
  resource: string;
  location: string;
  detail: string;
}

interface ProgressBarView {
  tone: 'fixed' | 'open' | 'new';
  label: string;
  count: number;
  x: number;
  width: number;
}

/**
 * What the HTML shows of a run after the migration: the progress since a previous report
 * (`--since`) with a small chart and the list of what was fixed, and the references checked and
 * found fine (`verified`), folded. Every key is filled, as the strict template wants.
 */
export interface AfterMigrationView {
  progress: {
    shown: boolean;
    headline: string;
    sentence: string;
    chart: { width: number; height: number; bars: ProgressBarView[]; label: string };
    fixed: AfterRowView[];
    /** "action migrate-db: execute": who is still locked out, per permission, each with their user page ('' without an app address). */
    lockedOut: { label: string; people: { email: string; url: string }[] }[];
  };
  verified: { rows: AfterRowView[] };
}

// One stacked bar: fixed, still open and new as shares of their sum (at least 2 px each, so none vanishes).
const CHART = { width: 420, height: 22 } as const;

export function buildAfterMigrationView(report: Report, appUrl = ''): AfterMigrationView {
  const verified = report.verified ?? [];
  return {
    progress: progressView(report, appUrl),
    verified: {
      rows: verified.map((finding) => ({
        id: finding.id,
        category: CATEGORY_DOCS[finding.category].title,
        resource: resourceLabel(finding.resource),
        location: finding.location,
        detail: finding.reason,
      })),
    },
  };
}

function progressView(report: Report, appUrl: string): AfterMigrationView['progress'] {
  const progress = report.progress;
  if (!progress) {
    return { shown: false, headline: '', sentence: '', chart: { width: CHART.width, height: CHART.height, bars: [], label: '' }, fixed: [], lockedOut: [] };
  }
  const day = sinceDay(progress);
  const counts = [
    { tone: 'fixed', label: 'fixed', count: progress.fixed.length },
    { tone: 'open', label: 'still open', count: progress.open },
    { tone: 'new', label: 'new', count: progress.new },
  ] as const;
  const total = Math.max(1, counts.reduce((sum, bar) => sum + bar.count, 0));
  let x = 0;
  const bars = counts
    .filter((bar) => bar.count > 0)
    .map((bar) => {
      const width = Math.max(2, Math.round((bar.count / total) * CHART.width));
      const view = { ...bar, x, width };
      x += width;
      return view;
    });
  return {
    shown: true,
    headline: `${progress.fixed.length} of ${progress.since.findings} fixed ${day === undefined ? 'since the previous report' : `since ${day}`}`,
    sentence: progressSentence(progress),
    chart: { width: Math.max(CHART.width, x), height: CHART.height, bars, label: counts.map((bar) => `${bar.count} ${bar.label}`).join(', ') },
    fixed: progress.fixed.map((item) => ({
      id: item.id,
      category: CATEGORY_DOCS[item.category].title,
      resource: resourceLabel(item.resource),
      location: item.location,
      detail: item.unchanged ? 'unchanged: now passes team identifiers on; check what receives them' : item.now === 'verified' ? 'checked, nothing to do now' : 'no longer found',
    })),
    lockedOut: (progress.stillLockedOut ?? [])
      .filter((entry) => (entry.loses ?? []).length > 0)
      .map((entry) => ({
        label: `${resourceLabel(entry.resource)}: ${entry.permission}${entry.input === undefined ? '' : ` (${entry.input})`}`,
        people: (entry.loses ?? []).map((email) => ({ email, url: appUrl ? entityUrl(appUrl, '_user', email) : '' })),
      })),
  };
}

function resourceLabel(resource: { type: string; identifier: string; title?: string }): string {
  return `${resource.type} ${resource.identifier}${resource.title && resource.title !== resource.identifier ? ` (${resource.title})` : ''}`;
}
