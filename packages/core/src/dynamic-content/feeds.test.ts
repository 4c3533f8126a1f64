import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '../fields/types.ts';
import {
  extractFeedFields,
  extractJsonPath,
  feedFieldValues,
  parseJsonPath,
  renderFeedUrl,
} from './feeds.ts';

const product = {
  product: { name: 'Trail shoe', price: 89.5, in_stock: true, 'odd key': { value: 'x' } },
  images: [{ url: 'https://cdn.example.com/1.png' }, { url: 'https://cdn.example.com/2.png' }],
};

describe('feeds', () => {
  it('render the URL with Liquid over parameters', () => {
    expect(
      renderFeedUrl(
        'https://example.com/products/{{ parameters.product_id | url_encode }}?q={{parameters.q}}',
        {
          product_id: 'a b/7',
          q: 'x',
        },
      ),
    ).toBe('https://example.com/products/a+b%2F7?q=x');
  });

  it('URL-encode every printed parameter, so a value stays one value of its path or query position', () => {
    const hostile = 'a&b=c/../x?y#z';
    const url = new URL(
      renderFeedUrl('https://example.com/products/{{ parameters.id }}?q={{ parameters.q }}&lang=en', {
        id: hostile,
        q: hostile,
      }),
    );
    expect(url.pathname).toBe('/products/a%26b%3Dc%2F..%2Fx%3Fy%23z');
    expect(decodeURIComponent(url.pathname.split('/')[2] ?? '')).toBe(hostile);
    expect([...url.searchParams.keys()]).toEqual(['q', 'lang']);
    expect(url.searchParams.get('q')).toBe(hostile);
    expect(url.hash).toBe('');
    // Filters see the plain value; `url_encode` is not encoded twice; `raw` opts nothing out.
    expect(renderFeedUrl('https://x.test/{{ parameters.id | upcase }}', { id: 'a/b' })).toBe(
      'https://x.test/A%2FB',
    );
    expect(renderFeedUrl('https://x.test/{{ parameters.id | url_encode }}', { id: 'a b/c' })).toBe(
      'https://x.test/a+b%2Fc',
    );
    expect(renderFeedUrl('https://x.test/{{ parameters.id | raw }}', { id: '../admin?x=1#' })).toBe(
      'https://x.test/..%2Fadmin%3Fx%3D1%23',
    );
    expect(renderFeedUrl('https://x.test/{% echo parameters.id %}', { id: '#' })).toBe('https://x.test/%23');
  });

  it('refuses a URL whose path climbs with "." or ".." segments, however they are spelled', () => {
    for (const value of ['..', '.']) {
      expect(() => renderFeedUrl('https://x.test/a/{{ parameters.id }}/b', { id: value })).toThrow(/"\.\."/);
    }
    for (const spelled of ['..', '%2e%2e', '.%2E', '.']) {
      expect(() => renderFeedUrl(`https://x.test/a/${spelled}/b`, {})).toThrow(/"\.\."/);
    }
    // A value that only looks like an encoded dot is encoded again: it stays text.
    expect(renderFeedUrl('https://x.test/a/{{ parameters.id }}', { id: '%2e%2e' })).toBe(
      'https://x.test/a/%252e%252e',
    );
    expect(renderFeedUrl('https://x.test/a/{{ parameters.id }}.json?up=..', { id: '.' })).toBe(
      'https://x.test/a/..json?up=..',
    );
  });

  it('a generated parameter value always arrives whole in its query parameter and path segment', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('.', '..')), (value) => {
        const template = 'https://example.com/p/{{ parameters.v }}/end?v={{ parameters.v }}&k=1';
        if (value === '.' || value === '..') {
          // A whole path segment of dots would climb the path whatever its encoding: refused.
          expect(() => renderFeedUrl(template, { v: value })).toThrow(/"\." or "\.\."/);
          return;
        }
        const url = new URL(renderFeedUrl(template, { v: value }));
        expect(url.searchParams.get('v')).toBe(value);
        expect(url.searchParams.get('k')).toBe('1');
        expect(url.pathname.split('/')).toHaveLength(4);
        expect(url.pathname.endsWith('/end')).toBe(true);
        expect(url.hash).toBe('');
      }),
    );
  });

  it('read JSON paths in dot, index and bracket forms', () => {
    expect(parseJsonPath('$.images[1].url')).toEqual(['images', 1, 'url']);
    expect(extractJsonPath(product, '$.product.name')).toBe('Trail shoe');
    expect(extractJsonPath(product, 'product.price')).toBe(89.5);
    expect(extractJsonPath(product, 'images[1].url')).toBe('https://cdn.example.com/2.png');
    expect(extractJsonPath(product, 'images.0.url')).toBe('https://cdn.example.com/1.png');
    expect(extractJsonPath(product, "$.product['odd key'].value")).toBe('x');
    expect(extractJsonPath(product, '$')).toBe(product);
    expect(extractJsonPath(product, 'product.missing.deeper')).toBeUndefined();
    expect(extractJsonPath(product, 'images.url')).toBeUndefined();
    expect(extractJsonPath(product, 'product..name')).toBeUndefined();
    expect(extractJsonPath(product, 'constructor')).toBeUndefined();
  });

  it('extract every field, null when missing', () => {
    expect(
      extractFeedFields(product, [
        { key: 'title', value: '$.product.name' },
        { key: 'image', value: '$.images[0].url' },
        { key: 'nothing', value: '$.nope' },
      ]),
    ).toEqual({ title: 'Trail shoe', image: 'https://cdn.example.com/1.png', nothing: null });
  });

  it('map feed fields onto component fields by feed_field_name', () => {
    const field = (liquid_variable: string, feed_field_name?: string): FieldDefinition => ({
      type: 'text',
      label: liquid_variable,
      liquid_variable,
      default_value: '',
      ...(feed_field_name ? { feed_field_name } : {}),
    });
    expect(
      feedFieldValues(
        [field('headline', 'title'), field('price', 'price'), field('note'), field('tags', 'tags')],
        {
          title: 'Trail shoe',
          price: 89.5,
          tags: ['a', 'b'],
          unused: 'x',
        },
      ),
    ).toEqual({ headline: 'Trail shoe', price: 89.5, tags: '["a","b"]' });
  });
});
