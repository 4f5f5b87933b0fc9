import { UsageError } from '../errors.js';
import type { ResourceRef } from '../model/finding.js';

/** The web app of each public region (the API's api. host becomes app.). */
const APP_URLS: Record<string, string> = { eu: 'https://app.getport.io', us: 'https://app.us.getport.io' };

/**
 * The app's address for "Open in the service": `--app-url` wins; else the app beside `--api-url`
 * (api.X → app.X); else the region's, eu by default as for the API.
 */
export function appBaseUrl(flags: { appUrl?: string; apiUrl?: string; region?: string; names?: { appUrl: string } }): string {
  if (flags.appUrl !== undefined) {
    const name = flags.names?.appUrl ?? '--app-url';
    let url: URL;
    try {
      url = new URL(flags.appUrl);
    } catch {
      throw new UsageError(`${name} must be an http(s) address, got "${flags.appUrl}"`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${name} must be an http(s) address, got "${flags.appUrl}"`);
    return url.origin + url.pathname.replace(/\/+$/, '');
  }
  // An --api-url that is not a URL is the live client's to report; here it only means no app beside it.
  const api = flags.apiUrl !== undefined && URL.canParse(flags.apiUrl) ? new URL(flags.apiUrl) : undefined;
  if (api?.hostname.startsWith('api.')) return `${api.protocol}//app.${api.hostname.slice(4)}`;
  return APP_URLS[flags.region ?? 'eu'] ?? (APP_URLS.eu as string);
}

/**
 * Where a resource is edited in the app (shapes from the service's public docs: the data model
 * and data sources pages under settings, an action by `self-serve?action=`, a page by its
 * identifier). The docs give no address of one blueprint, scorecard, automation, integration or
 * webhook (only the builder, automations and data-sources list pages, and a data source's install
 * page by provider), so those open their list and say so (serviceLinkLabel). Repository files have
 * no page in the service.
 */
export function serviceUrl(base: string, resource: ResourceRef): string {
  const id = encodeURIComponent(resource.identifier);
  switch (resource.type) {
    case 'blueprint':
    case 'scorecard':
      return `${base}/settings/data-model`;
    case 'action':
      return `${base}/self-serve?action=${id}`;
    case 'automation':
      return `${base}/settings/automations`;
    case 'page':
      return `${base}/${id}`;
    case 'integration':
    case 'webhook':
      return `${base}/settings/data-sources`;
    case 'file':
      return '';
  }
}

/**
 * An entity's page: `<app>/<blueprint>Entity?identifier=<entity>`. The shape is the service's own
 * (its docs link e.g. `https://app.getport.io/MicroserviceEntity?identifier=cart-service`, and the
 * "Pull Request Enricher AI agent" guide links users as `_userEntity?identifier=jaden.m%2B1%40getport.io`,
 * with the identifier percent-encoded as here). Users are `_user` entities keyed by email, teams `_team`.
 */
export function entityUrl(base: string, blueprint: string, identifier: string): string {
  return `${base}/${encodeURIComponent(blueprint)}Entity?identifier=${encodeURIComponent(identifier)}`;
}

/** The blueprint whose entities a finding's resource judges: a blueprint's own, a scorecard's (`<blueprint>/<scorecard>`). */
export function entityBlueprintOf(resource: ResourceRef): string | undefined {
  if (resource.type === 'blueprint') return resource.identifier;
  if (resource.type === 'scorecard') return resource.identifier.split('/')[0] || undefined;
  return undefined;
}

/**
 * The link's words: "Open in the service" only where the address is the resource's own page; a
 * list page says which list, so nobody expects to land on the resource itself.
 */
export function serviceLinkLabel(resource: ResourceRef): string {
  switch (resource.type) {
    case 'blueprint':
    case 'scorecard':
      return 'Open the data model';
    case 'automation':
      return 'Open the automations';
    case 'integration':
    case 'webhook':
      return 'Open the data sources';
    default:
      return 'Open in the service';
  }
}
