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
