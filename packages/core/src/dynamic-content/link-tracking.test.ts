import { describe, expect, it } from 'vitest';
import {
  addQueryParameters,
  isTrackableUrl,
  type LinkTrackingProfileDefinition,
  linkTrackingParameters,
  trackLinksInHtml,
  trackUrl,
} from './link-tracking.ts';

const profile: LinkTrackingProfileDefinition = {
  parameters: [
    { type: 'fixed_value', parameter: 'utm_source', value: 'letterset' },
    { type: 'editor_field_value', parameter: 'utm_content' },
    { type: 'editor_global_field_value', parameter: 'utm_campaign' },
  ],
  custom_template: null,
};
const values = { field: { utm_content: 'hero cta' }, global: { utm_campaign: 'spring & summer' } };

describe('link tracking', () => {
  it('resolves fixed, per-link and per-email parameters, leaving out empty ones', () => {
    expect(linkTrackingParameters(profile, values)).toEqual({
      utm_source: 'letterset',
      utm_content: 'hero cta',
      utm_campaign: 'spring & summer',
    });
    expect(linkTrackingParameters(profile, { field: { utm_content: '' } })).toEqual({
      utm_source: 'letterset',
    });
  });

  it('adds encoded parameters to a link without a query', () => {
    expect(trackUrl('https://example.com/shop', profile, values)).toBe(
      'https://example.com/shop?utm_source=letterset&utm_content=hero%20cta&utm_campaign=spring%20%26%20summer',
    );
  });

  it('keeps existing query parameters, and the link’s own value of a tracked name', () => {
    expect(trackUrl('https://example.com/p?id=7&utm_source=partner', profile, {})).toBe(
      'https://example.com/p?id=7&utm_source=partner',
    );
    expect(trackUrl('https://example.com/p?id=7', profile, {})).toBe(
      'https://example.com/p?id=7&utm_source=letterset',
    );
    expect(addQueryParameters('https://example.com/p?', { a: '1' })).toBe('https://example.com/p?a=1');
    expect(addQueryParameters('https://example.com/p?x=1&', { a: '1' })).toBe(
      'https://example.com/p?x=1&a=1',
    );
  });

  it('puts the parameters before the fragment', () => {
    expect(trackUrl('https://example.com/faq?lang=en#returns', profile, {})).toBe(
      'https://example.com/faq?lang=en&utm_source=letterset#returns',
    );
    expect(trackUrl('http://example.com#top', profile, {})).toBe(
      'http://example.com?utm_source=letterset#top',
    );
  });

  it('skips mailto:, tel:, anchors, relative links and sending-platform code', () => {
    for (const url of [
      'mailto:help@example.com',
      'tel:+4912345',
      '#top',
      '/relative',
      'https://example.com/{{ user_id }}',
      'https://example.com/?u={% raw %}x',
      '%%=RedirectTo(@url)=%%',
      'https://example.com/?id=%%subscriberkey%%',
    ]) {
      expect(isTrackableUrl(url), url).toBe(false);
      expect(trackUrl(url, profile, values)).toBe(url);
    }
    expect(isTrackableUrl('HTTPS://EXAMPLE.COM')).toBe(true);
  });

  it('builds the final URL with a custom template', () => {
    const wrapper: LinkTrackingProfileDefinition = {
      ...profile,
      custom_template: 'https://click.example.net/r?to={{ url | url_encode }}&{{ query }}',
    };
    expect(trackUrl('https://example.com/a?b=1', wrapper, values)).toBe(
      'https://click.example.net/r?to=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&utm_source=letterset&utm_content=hero%20cta&utm_campaign=spring%20%26%20summer',
    );
    const perParameter: LinkTrackingProfileDefinition = {
      parameters: [{ type: 'fixed_value', parameter: 'src', value: 'mail' }],
      custom_template: '{{ tracked_url }}&via={{ parameters.src }}',
    };
    expect(trackUrl('https://example.com/', perParameter, {})).toBe('https://example.com/?src=mail&via=mail');
    expect(trackUrl('mailto:a@example.com', wrapper, values)).toBe('mailto:a@example.com');
    const broken = { ...perParameter, custom_template: '{{ url | no_such_filter }}' };
    expect(trackUrl('https://example.com/', broken, {})).toBe('https://example.com/?src=mail');
  });

  it('tracks every link of a piece of HTML, re-encoding the attribute', () => {
    const html =
      '<p><a href="https://example.com/?a=1&amp;b=2">One</a> <a class="x" href=\'mailto:a@example.com\'>Mail</a>' +
      ' <a href="#top">Top</a> <a href=https://example.org>Bare</a></p>';
    expect(trackLinksInHtml(html, { parameters: profile.parameters.slice(0, 1) }, {})).toBe(
      '<p><a href="https://example.com/?a=1&amp;b=2&amp;utm_source=letterset">One</a> <a class="x" href="mailto:a@example.com">Mail</a>' +
        ' <a href="#top">Top</a> <a href="https://example.org?utm_source=letterset">Bare</a></p>',
    );
  });
});
