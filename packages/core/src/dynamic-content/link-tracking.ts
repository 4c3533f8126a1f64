import { parseTemplate, plainTextLiquid } from '../render/liquid-engine.ts';

/**
 * Link tracking: a profile adds query parameters to every tracked link, or builds the final URL
 * with its own Liquid template (a redirect wrapper, say).
 */
export type LinkTrackingParameter =
  /** The same value on every link. */
  | { type: 'fixed_value'; parameter: string; value: string }
  /** A value entered per link: the field value's `link_tracking_parameters[parameter]`. */
  | { type: 'editor_field_value'; parameter: string }
  /** One value per email: the content's `global_link_tracking_parameters[parameter]`. */
  | { type: 'editor_global_field_value'; parameter: string };

export const linkTrackingParameterTypes = [
  'fixed_value',
  'editor_field_value',
  'editor_global_field_value',
] as const;

export interface LinkTrackingProfileDefinition {
  id?: number;
  name?: string;
  parameters: LinkTrackingParameter[];
  /**
   * Liquid that outputs the final URL. It sees `url` (the link as written), `parameters` (name →
   * value of this link's parameters), `query` (those parameters as an encoded query string) and
   * `tracked_url` (the link with the parameters added).
   */
  custom_template?: string | null;
}

/** The values a link's `editor_*` parameters read. */
export interface LinkTrackingValues {
  field?: Record<string, string> | undefined;
  global?: Record<string, string> | undefined;
}

/** Sending-platform code in a URL: the platform builds that link at send time, so it is left alone. */
const platformCode = /\{\{|\{%|%%/;

/** Only absolute http(s) links are tracked: not mailto:, tel:, #anchors, relative or platform links. */
export function isTrackableUrl(url: string): boolean {
  const trimmed = url.trim();
  return /^https?:\/\//i.test(trimmed) && !platformCode.test(trimmed);
}

/** This link's parameters, in the profile's order; parameters without a value are left out. */
export function linkTrackingParameters(
  profile: LinkTrackingProfileDefinition,
  values: LinkTrackingValues,
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const parameter of profile.parameters) {
    const value =
      parameter.type === 'fixed_value'
        ? parameter.value
        : parameter.type === 'editor_field_value'
          ? values.field?.[parameter.parameter]
          : values.global?.[parameter.parameter];
    if (value !== undefined && value !== null && value !== '') resolved[parameter.parameter] = value;
  }
  return resolved;
}

function existingParameterNames(query: string): Set<string> {
  const names = new Set<string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const name = pair.split('=')[0] ?? '';
    try {
      names.add(decodeURIComponent(name.replaceAll('+', ' ')));
    } catch {
      names.add(name);
    }
  }
  return names;
}

/**
 * The URL with the parameters added to its query string, before any `#fragment`. Parameters the
 * link already has keep the link's own value; names and values are percent-encoded.
 */
export function addQueryParameters(url: string, parameters: Record<string, string>): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const query = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1);
  const existing = existingParameterNames(query);
  const added = Object.entries(parameters)
    .filter(([name]) => !existing.has(name))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  if (added.length === 0) return url;
  const separator = queryAt === -1 ? '?' : query === '' || query.endsWith('&') ? '' : '&';
  return `${beforeHash}${separator}${added.join('&')}${fragment}`;
}

/** The tracked form of one link; untrackable links come back unchanged. */
export function trackUrl(
  url: string,
  profile: LinkTrackingProfileDefinition,
  values: LinkTrackingValues,
): string {
  if (!isTrackableUrl(url)) return url;
  const link = url.trim();
  const parameters = linkTrackingParameters(profile, values);
  const trackedUrl = addQueryParameters(link, parameters);
  if (!profile.custom_template) return trackedUrl;
  const query = Object.entries(parameters)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  try {
    return plainTextLiquid
      .renderSync(parseTemplate(profile.custom_template, plainTextLiquid), {
        url: link,
        parameters,
        query,
        tracked_url: trackedUrl,
      })
      .trim();
  } catch {
    // A template that fails (the API refuses invalid ones) must not lose the link: add the parameters.
    return trackedUrl;
  }
}

const anchorTag = /<a\b[^>]*>/gi;
const hrefAttribute = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

function decodeAttribute(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

function encodeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
}

/** Tracks the `href` of every `<a>` in a piece of HTML (a rich-text value). */
export function trackLinksInHtml(
  html: string,
  profile: LinkTrackingProfileDefinition,
  values: LinkTrackingValues,
): string {
  return html.replace(anchorTag, (tag) =>
    tag.replace(hrefAttribute, (_match, prefix: string, double?: string, single?: string, bare?: string) => {
      const href = decodeAttribute(double ?? single ?? bare ?? '');
      return `${prefix}"${encodeAttribute(trackUrl(href, profile, values))}"`;
    }),
  );
}
