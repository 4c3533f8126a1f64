import { Drop, Liquid } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import { HtmlValue, liquid } from './liquid-engine.ts';

class Greeting extends Drop {
  override liquidMethodMissing(key: string | number): unknown {
    return `hello ${key}`;
  }
}

// The fast path is installed on LiquidJS's shared Output class; a second, default engine shows
// that outputs keep LiquidJS's own semantics whatever took them.
const reference = new Liquid({ ownPropertyOnly: true });

const scope = {
  text: 'Fish & chips',
  number: 12.5,
  flag: false,
  nothing: null,
  list: ['a', 'b', 'c'],
  nested: { deeper: { value: 'deep' }, list: [1, 2] },
  drop: new Greeting(),
  html: new HtmlValue('<b>bold</b>'),
  withToLiquid: { toLiquid: () => ({ name: 'converted' }) },
  withFunction: { now: () => 'called' },
  inherited: Object.create({ secret: 'from prototype' }),
};

const templates = [
  '{{ text }}',
  '{{ number }}|{{ flag }}|{{ nothing }}|{{ missing }}|{{ missing.deeper }}',
  '{{ list }}|{{ list.size }}|{{ list.first }}|{{ list.last }}|{{ list[1] }}|{{ list[-1] }}',
  '{{ nested.deeper.value }}|{{ nested["deeper"].value }}|{{ nested.list.size }}',
  '{{ text.size }}|{{ text.first }}|{{ drop.anything }}|{{ html }}|{{ html.size }}',
  '{{ withToLiquid.name }}|{{ withFunction.now }}|{{ inherited.secret }}',
  '{{ "literal" }}|{{ 42 }}|{{ text | upcase }}|{{ text | append: "!" | escape }}|{{ nothing | default: "fallback" }}',
  '{% assign local = "assigned" %}{{ local }}{% for item in list %}{{ item }}{{ forloop.index }}{% endfor %}',
  '{% capture block %}<i>{{ text }}</i>{% endcapture %}{{ block }}',
];

describe('fast outputs', () => {
  it.each(templates)('match LiquidJS for %s', (template) => {
    expect(reference.parseAndRenderSync(template, scope)).toMatchSnapshot();
  });

  it('escape in the HTML engine exactly as the escape filter would', () => {
    const escaped = liquid.parseAndRenderSync(
      '{{ text }}|{{ nested.deeper.value }}|{{ html }}|{{ missing }}',
      scope,
    );
    expect(escaped).toBe('Fish &amp; chips|deep|<b>bold</b>|');
  });
});
