import type { HtmlTagObject } from '@docusaurus/types';

/** The deployment-specific URLs and options of the docs site, read from the environment at build time. */
export interface SiteSettings {
  /** Where the docs site itself is published (Docusaurus `url`). */
  docsUrl: string;
  /** The Letterset web app. */
  appUrl: string;
  /** The Letterset API server; `/api/` fetches `${apiUrl}/openapi.yml` in the reader's browser. */
  apiUrl: string;
  /** The product's main site, linked as Home. */
  siteUrl: string;
  /** The optional page-view script; present only when both its variables are set. */
  analytics: { scriptUrl: string; siteId: string } | null;
}

const defaultLettersetUrl = 'http://localhost:3000';
const defaultDocsUrl = 'http://localhost:3001';

export function siteSettingsFrom(environment: Record<string, string | undefined>): SiteSettings {
  const scriptUrl = environment.DOCS_ANALYTICS_SCRIPT_URL?.trim();
  const siteId = environment.DOCS_ANALYTICS_SITE_ID?.trim();
  return {
    docsUrl: urlFrom(environment.DOCS_URL, defaultDocsUrl),
    appUrl: urlFrom(environment.LETTERSET_APP_URL, defaultLettersetUrl),
    apiUrl: urlFrom(environment.LETTERSET_API_URL, defaultLettersetUrl),
    siteUrl: urlFrom(environment.LETTERSET_SITE_URL, defaultLettersetUrl),
    analytics: scriptUrl && siteId ? { scriptUrl, siteId } : null,
  };
}

/** An absolute URL without a trailing slash, so callers can append paths; a bad value fails the build. */
function urlFrom(value: string | undefined, fallback: string): string {
  const text = value?.trim() || fallback;
  return new URL(text).href.replace(/\/+$/, '');
}

/**
 * The page-view script of a Plausible- or Umami-compatible analytics server: each reads its own
 * attribute (`data-domain` or `data-website-id`) and ignores the other. Both count visits without
 * cookies. No tag at all unless analytics is configured.
 */
export function analyticsHeadTags(settings: SiteSettings): HtmlTagObject[] {
  if (!settings.analytics) return [];
  return [
    {
      tagName: 'script',
      attributes: {
        defer: true,
        src: settings.analytics.scriptUrl,
        'data-domain': settings.analytics.siteId,
        'data-website-id': settings.analytics.siteId,
      },
    },
  ];
}
