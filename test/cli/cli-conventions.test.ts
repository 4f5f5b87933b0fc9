import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConnection } from '../../src/api/connection.js';
import { run as runLive, tempDir, withSandbox } from '../live/harness.js';
import { runCliCaptured } from './run-cli.js';

/*
 * Issue 31 item 9: the CLI conventions a CI job expects. `--out -` puts one machine format on
 * stdout and nothing else there; the options a job sets per environment come from the environment
 * too, flags winning; `--api-url` never drops a path silently.
 */
const DEMO = 'fixtures/demo-org.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-conventions-'));
const FIXED = { SOURCE_DATE_EPOCH: '1767225600' };

describe('--out - writes one machine format to stdout', () => {
  // One run into a folder, in every machine format, for the piped runs to match.
  let saved = '';
  beforeAll(async () => {
    saved = tmp();
    expect((await runCliCaptured(['analyze', DEMO, '--out', saved, '--format', 'json,sarif,junit,md', '--no-fixes', '--fail-on', 'none'], FIXED)).code).toBe(0);
  });

  for (const [format, file] of [['json', 'report.json'], ['sarif', 'report.sarif'], ['junit', 'report.junit.xml'], ['md', 'summary.md']] as const) {
    it(`--format ${format}: stdout holds exactly what ${file} holds, and no folder "-" is made`, async () => {
      const out = saved;
      const piped = await runCliCaptured(['analyze', DEMO, '--out', '-', '--format', format, '--fail-on', 'none'], FIXED);
      expect(piped.code).toBe(0);
      const expected = readFileSync(join(out, file), 'utf8');
      // The Markdown names where the full report was saved; on stdout nothing was saved.
      expect(piped.stdout).toBe(format === 'md' ? expected.replace(/^Full report: .*\n\n/m, '') : expected);
      expect(piped.stderr).toContain(`wrote ${file} to stdout`);
      expect(existsSync('-')).toBe(false);
    });
  }

  it('refuses the HTML page, several formats, or none named, in one line, with nothing on stdout', async () => {
    for (const format of [['--format', 'html'], ['--format', 'json,sarif'], []]) {
      const run = await runCliCaptured(['analyze', DEMO, '--out', '-', ...format]);
      expect(run.code, format.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^teams-migration-audit: --out - writes one machine format to stdout: give --format json, sarif, junit or md/);
    }
    expect(existsSync('-')).toBe(false);
  });

  it('refuses what would write files beside it (a baseline, a fix kit folder, --fix), in one line', async () => {
    for (const extra of [['--write-baseline', join(tmp(), 'b.json')], ['--fix-out', tmp()], ['--fix', '--repo', 'fixtures/repo']]) {
      const run = await runCliCaptured(['analyze', DEMO, '--out', '-', '--format', 'json', ...extra]);
      expect(run.code, extra.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('snapshot --out - writes the snapshot to stdout', async () => {
    const out = join(tmp(), 'org.json');
    expect((await runCliCaptured(['snapshot', DEMO, '--out', out, '--quiet'])).code).toBe(0);
    const piped = await runCliCaptured(['snapshot', DEMO, '--out', '-']);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(readFileSync(out, 'utf8'));
    expect(existsSync('-')).toBe(false);
  });
});

describe('options a CI job sets per environment come from the environment, flags winning', () => {
  it('PORT_REGION and PORT_API_URL choose where a live read goes; --region and --api-url win over them', async () => {
    const credentials = { PORT_TOKEN: 't' };
    expect((await resolveConnection({}, { ...credentials, PORT_REGION: 'us' }))?.baseUrl.href).toBe('https://api.us.getport.io/');
    expect((await resolveConnection({ region: 'eu' }, { ...credentials, PORT_REGION: 'us' }))?.baseUrl.href).toBe('https://api.getport.io/');
    expect((await resolveConnection({}, { ...credentials, PORT_API_URL: 'http://127.0.0.1:9/' }))?.baseUrl.href).toBe('http://127.0.0.1:9/');
    expect((await resolveConnection({ apiUrl: 'http://127.0.0.1:8' }, { ...credentials, PORT_API_URL: 'http://127.0.0.1:9' }))?.baseUrl.href).toBe('http://127.0.0.1:8/');
    // --region beside PORT_API_URL: the flag wins, as a flag wins over any variable.
    expect((await resolveConnection({ region: 'us' }, { ...credentials, PORT_API_URL: 'http://127.0.0.1:9' }))?.baseUrl.href).toBe('https://api.us.getport.io/');
  });

  it('a bad value names the variable it came from', async () => {
    const region = await runCliCaptured(['analyze', '--out', tmp()], { PORT_TOKEN: 't', PORT_REGION: 'mars' });
    expect(region.code).toBe(2);
    expect(region.stderr).toBe('teams-migration-audit: PORT_REGION must be "eu" or "us", got "mars"\n');
    const url = await runCliCaptured(['analyze', '--out', tmp()], { PORT_TOKEN: 't', PORT_API_URL: 'not a url' });
    expect(url.code).toBe(2);
    expect(url.stderr).toBe('teams-migration-audit: PORT_API_URL: "not a url" is not a URL\n');
  });

  it('a region is a name, whatever its case (PORT_REGION=EU, issue 42)', async () => {
    const credentials = { PORT_TOKEN: 't' };
    expect((await resolveConnection({}, { ...credentials, PORT_REGION: 'EU' }))?.baseUrl.href).toBe('https://api.getport.io/');
    expect((await resolveConnection({}, { ...credentials, PORT_REGION: 'Us' }))?.baseUrl.href).toBe('https://api.us.getport.io/');
  });

  it('a bare host for --api-url is refused with the URL it most likely means (issue 42)', async () => {
    const bare = await runCliCaptured(['analyze', '--api-url', 'api.getport.io', '--out', tmp()], { PORT_TOKEN: 't' });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe('teams-migration-audit: --api-url: "api.getport.io" is not a URL (did you mean https://api.getport.io?)\n');
    // Text that is no host gets no guess.
    expect((await runCliCaptured(['analyze', '--api-url', 'not a url', '--out', tmp()], { PORT_TOKEN: 't' })).stderr).toBe('teams-migration-audit: --api-url: "not a url" is not a URL\n');
  });

  it('an API that cannot be read at all is one line on stderr, with no progress line before it (issue 42)', async () => {
    for (const args of [['analyze', '--out', tmp()], ['snapshot', '--out', join(tmp(), 'org.json')]]) {
      // Port 9 (discard) on the loopback: nothing listens, the connection is refused at once.
      const run = await runCliCaptured([...args, '--api-url', 'http://127.0.0.1:9'], { PORT_TOKEN: 't' });
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^teams-migration-audit: cannot read the catalog API at http:\/\/127\.0\.0\.1:9: /)]);
    }
  });

  it('PORT_API_URL reads the live org from the sandbox', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const out = await tempDir();
      const result = await runLive(['analyze', '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], { PORT_TOKEN: sandbox.token, PORT_API_URL: sandbox.url }, clock);
      expect(result.code).toBe(0);
      expect(sandbox.requests.length).toBeGreaterThan(0);
    });
  });

  it('PORT_REGION and PORT_APP_URL choose the report\'s links into the app; --app-url wins', async () => {
    const page = async (args: string[], env: Record<string, string>) => {
      const out = tmp();
      expect((await runCliCaptured(['analyze', DEMO, '--out', out, '--format', 'html', '--fail-on', 'none', '--quiet', ...args], env)).code).toBe(0);
      return readFileSync(join(out, 'index.html'), 'utf8');
    };
    expect(await page([], { PORT_REGION: 'us' })).toContain('https://app.us.getport.io/');
    expect(await page([], { PORT_APP_URL: 'https://port.example.com' })).toContain('https://port.example.com/');
    const flagWins = await page(['--app-url', 'https://flag.example.com'], { PORT_APP_URL: 'https://port.example.com' });
    expect(flagWins).toContain('https://flag.example.com/');
    expect(flagWins).not.toContain('https://port.example.com/');
  });

  it('--help names each variable, and the usage page lists the same', async () => {
    const help = (await runCliCaptured(['analyze', '--help'])).stdout;
    const readme = readFileSync('docs/usage.md', 'utf8');
    for (const name of ['PORT_REGION', 'PORT_API_URL', 'PORT_APP_URL']) {
      expect(help).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
      expect(readme).toContain(`\`${name}\``);
    }
  });
});

describe('--api-url keeps no path silently', () => {
  it('a path other than /v1 is refused in one line; /v1 names the same API', async () => {
    const run = await runCliCaptured(['analyze', '--api-url', 'https://gateway.example.com/port', '--out', tmp()], { PORT_TOKEN: 't' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'teams-migration-audit: --api-url https://gateway.example.com/port: the path "/port" would be dropped: requests go to https://gateway.example.com/v1/…; give the address the API answers at, without a path\n',
    );
    const query = await runCliCaptured(['analyze', '--api-url', 'https://api.getport.io/?x=1', '--out', tmp()], { PORT_TOKEN: 't' });
    expect(query.code).toBe(2);
    expect(query.stderr).toContain('the query "?x=1" would be dropped');
    for (const base of ['https://api.getport.io', 'https://api.getport.io/', 'https://api.getport.io/v1', 'https://api.getport.io/v1/']) {
      expect((await resolveConnection({ apiUrl: base }, { PORT_TOKEN: 't' }))?.baseUrl.href, base).toBe('https://api.getport.io/');
    }
  });
});
