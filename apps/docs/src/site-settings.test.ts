import { describe, expect, it } from 'vitest';
import { analyticsHeadTags, siteSettingsFrom } from './site-settings';

describe('siteSettingsFrom', () => {
  it('points everything at a local Letterset when nothing is configured', () => {
    expect(siteSettingsFrom({})).toEqual({
      docsUrl: 'http://localhost:3001',
      appUrl: 'http://localhost:3000',
      apiUrl: 'http://localhost:3000',
      siteUrl: 'http://localhost:3000',
      analytics: null,
    });
  });

  it('reads each URL from its variable, without a trailing slash so paths can be appended', () => {
    const settings = siteSettingsFrom({
      DOCS_URL: 'https://docs.example.org/',
      LETTERSET_APP_URL: 'https://app.example.org',
      LETTERSET_API_URL: ' https://api.example.org/ ',
      LETTERSET_SITE_URL: 'https://example.org',
    });
    expect(settings).toMatchObject({
      docsUrl: 'https://docs.example.org',
      appUrl: 'https://app.example.org',
      apiUrl: 'https://api.example.org',
      siteUrl: 'https://example.org',
    });
  });

  it('rejects a URL that is not absolute, so a misconfigured build fails early', () => {
    expect(() => siteSettingsFrom({ LETTERSET_API_URL: 'api.example.org' })).toThrow();
  });
});

describe('analyticsHeadTags', () => {
  it('adds no script unless both the script URL and the site id are set', () => {
    expect(analyticsHeadTags(siteSettingsFrom({}))).toEqual([]);
    expect(
      analyticsHeadTags(siteSettingsFrom({ DOCS_ANALYTICS_SCRIPT_URL: 'https://stats.example.org/s.js' })),
    ).toEqual([]);
    expect(analyticsHeadTags(siteSettingsFrom({ DOCS_ANALYTICS_SITE_ID: 'docs.example.org' }))).toEqual([]);
  });

  it('adds one deferred script that either analytics server recognises', () => {
    const tags = analyticsHeadTags(
      siteSettingsFrom({
        DOCS_ANALYTICS_SCRIPT_URL: 'https://stats.example.org/script.js',
        DOCS_ANALYTICS_SITE_ID: 'docs.example.org',
      }),
    );
    expect(tags).toEqual([
      {
        tagName: 'script',
        attributes: {
          defer: true,
          src: 'https://stats.example.org/script.js',
          'data-domain': 'docs.example.org',
          'data-website-id': 'docs.example.org',
        },
      },
    ]);
  });
});
