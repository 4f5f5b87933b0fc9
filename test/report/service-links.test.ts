import { describe, expect, it } from 'vitest';
import { appBaseUrl, entityBlueprintOf, entityUrl, serviceLinkLabel, serviceUrl } from '../../src/report/service-links.js';

describe('Open in the service', () => {
  it('takes the app from --app-url, else beside --api-url, else the region (eu by default)', () => {
    expect(appBaseUrl({ appUrl: 'https://port.example.com/base/' })).toBe('https://port.example.com/base');
    expect(appBaseUrl({ apiUrl: 'https://api.us.getport.io' })).toBe('https://app.us.getport.io');
    expect(appBaseUrl({ region: 'us' })).toBe('https://app.us.getport.io');
    expect(appBaseUrl({})).toBe('https://app.getport.io');
    expect(() => appBaseUrl({ appUrl: 'javascript:alert(1)' })).toThrow('--app-url must be an http(s) address');
    expect(() => appBaseUrl({ appUrl: 'not a url' })).toThrow('--app-url must be an http(s) address');
  });

  it('links each resource type to where it is edited, and files nowhere', () => {
    const base = 'https://app.getport.io';
    expect(serviceUrl(base, { type: 'action', identifier: 'deploy service' })).toBe('https://app.getport.io/self-serve?action=deploy%20service');
    expect(serviceUrl(base, { type: 'page', identifier: 'sre_dashboard' })).toBe('https://app.getport.io/sre_dashboard');
    expect(serviceUrl(base, { type: 'blueprint', identifier: 'service' })).toBe('https://app.getport.io/settings/data-model');
    expect(serviceUrl(base, { type: 'integration', identifier: 'github' })).toBe('https://app.getport.io/settings/data-sources');
    expect(serviceUrl(base, { type: 'automation', identifier: 'a' })).toBe('https://app.getport.io/settings/automations');
    expect(serviceUrl(base, { type: 'scorecard', identifier: 'service/prod' })).toBe('https://app.getport.io/settings/data-model');
    expect(serviceUrl(base, { type: 'webhook', identifier: 'w' })).toBe('https://app.getport.io/settings/data-sources');
    expect(serviceUrl(base, { type: 'page', identifier: 'sre board/ü' })).toBe('https://app.getport.io/sre%20board%2F%C3%BC');
    expect(serviceUrl(base, { type: 'file', identifier: 'main.tf' })).toBe('');
  });

  it('says "Open in the service" only where the link is the resource\'s own page, and which list page otherwise', () => {
    expect(serviceLinkLabel({ type: 'action', identifier: 'a' })).toBe('Open in the service');
    expect(serviceLinkLabel({ type: 'page', identifier: 'p' })).toBe('Open in the service');
    expect(serviceLinkLabel({ type: 'blueprint', identifier: 'b' })).toBe('Open the data model');
    expect(serviceLinkLabel({ type: 'scorecard', identifier: 'b/s' })).toBe('Open the data model');
    expect(serviceLinkLabel({ type: 'automation', identifier: 'a' })).toBe('Open the automations');
    expect(serviceLinkLabel({ type: 'webhook', identifier: 'w' })).toBe('Open the data sources');
  });

  it('links an entity to its page as the service does, identifiers with spaces, slashes and unicode encoded', () => {
    expect(entityUrl('https://app.getport.io', 'service', 'cart-service')).toBe('https://app.getport.io/serviceEntity?identifier=cart-service');
    expect(entityUrl('https://app.getport.io', '_user', 'jaden.m+1@getport.io')).toBe('https://app.getport.io/_userEntity?identifier=jaden.m%2B1%40getport.io');
    expect(entityUrl('https://app.getport.io', '_team', 'sre oncall')).toBe('https://app.getport.io/_teamEntity?identifier=sre%20oncall');
    expect(entityUrl('https://app.getport.io', 'service', 'owner/zürich & co')).toBe('https://app.getport.io/serviceEntity?identifier=owner%2Fz%C3%BCrich%20%26%20co');
    // The region's app, or a self-hosted one under a path, is the base.
    expect(entityUrl(appBaseUrl({ region: 'us' }), 'service', 'a')).toBe('https://app.us.getport.io/serviceEntity?identifier=a');
    expect(entityUrl(appBaseUrl({ appUrl: 'https://port.example.com/base/' }), 'service', 'a')).toBe('https://port.example.com/base/serviceEntity?identifier=a');
  });

  it('knows whose entities a blueprint or scorecard judges, and that other resources have none', () => {
    expect(entityBlueprintOf({ type: 'blueprint', identifier: 'service' })).toBe('service');
    expect(entityBlueprintOf({ type: 'scorecard', identifier: 'service/production' })).toBe('service');
    expect(entityBlueprintOf({ type: 'action', identifier: 'deploy' })).toBeUndefined();
    expect(entityBlueprintOf({ type: 'file', identifier: 'main.tf' })).toBeUndefined();
  });
});
