import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.ts';

describe('LruCache', () => {
  it('keeps entries up to its budget and forgets the least recently used first', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // now b is the least recently used
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('measures entries with sizeOf and never stores one larger than the budget', () => {
    const cache = new LruCache<string, string>(10, (key, value) => key.length + value.length);
    cache.set('k1', 'abcd'); // 6
    cache.set('k2', 'ab'); // 4: 10 in all
    expect(cache.size).toBe(2);
    cache.set('k3', 'a'); // 3: k1 goes
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k2')).toBe('ab');
    cache.set('huge', 'x'.repeat(20));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('replaces a value set again under the same key, counting it once', () => {
    const cache = new LruCache<string, string>(10, (_key, value) => value.length);
    cache.set('a', '12345');
    cache.set('a', '123456');
    cache.set('b', '1234');
    expect(cache.get('a')).toBe('123456');
    expect(cache.get('b')).toBe('1234');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
  });
});
