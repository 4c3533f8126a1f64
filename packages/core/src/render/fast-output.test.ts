import { Drop, Liquid, type LiquidError } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import { HtmlValue, liquid, plainTextLiquid } from './liquid-engine.ts';

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

class Exploding extends Drop {
  override liquidMethodMissing(key: string | number): unknown {
    throw new Error(`no ${key} here`);
  }
}

const tagScope = {
  ...scope,
  empty: '',
  spaces: '   ',
  zero: 0,
  words: ['spring', 'summer'],
  record: { a: 1, b: 2, size: 'own size' },
  level: 'h2',
  exploding: new Exploding(),
};

// LiquidJS semantics the synchronous render loop, fast tags and value evaluation must keep.
const tagTemplates = [
  '{% if text %}yes{% endif %}|{% if missing %}yes{% else %}no{% endif %}|{% if flag %}a{% elsif number > 10 %}b{% else %}c{% endif %}',
  '{% if empty == blank %}blank{% endif %}|{% if spaces != blank %}not blank{% endif %}|{% if list != empty %}items{% endif %}|{% if nothing == nil %}nil{% endif %}',
  '{% if zero %}zero is truthy{% endif %}|{% if text contains "chips" and number >= 12.5 %}both{% endif %}|{% if flag or list.size == 3 %}either{% endif %}',
  '{% if text.size > 10 %}long{% endif %}|{% if nested.deeper.value == "deep" %}deep{% endif %}|{% if html == "<b>bold</b>" %}html{% endif %}|{% if html.size == 11 %}11{% endif %}',
  '{% if words contains "summer" %}summer{% endif %}|{% if record.size == "own size" %}own{% endif %}|{% if drop.thing == "hello thing" %}drop{% endif %}',
  '{% unless flag %}unless{% endunless %}|{% if not flag %}not{% endif %}',
  '{% case level %}{% when "h1" %}one{% when "h2", "h3" %}two or three{% else %}other{% endcase %}',
  '{% case number %}{% when 12.5 %}a{% when 12.5 %}b{% endcase %}|{% case missing %}{% when nothing %}nil matches{% else %}else{% endcase %}',
  '{% assign width = text.size | times: 9 | plus: 56 %}{{ width }}|{% assign copy = text %}{{ copy | upcase }}|{% assign joined = words | join: ", " %}{{ joined }}',
  '{% assign picked = list | where: "x", nothing %}{{ picked.size }}|{{ nothing | default: text, allow_false: true }}|{{ flag | default: "f", allow_false: true }}',
  '{% for word in words %}{% if forloop.first %}[{% endif %}{{ word }}{% if forloop.last %}]{% else %}, {% endif %}{% endfor %}',
  '{% for i in (1..5) %}{% if i == 2 %}{% continue %}{% endif %}{% if i == 4 %}{% break %}{% endif %}{{ i }}{% endfor %}',
  '{% capture block %}{% if text %}<i>{{ text }}</i>{% endif %}{% endcapture %}{{ block }}|{% assign n = 3 %}{% if n == 3 %}{% assign n = n | plus: 1 %}{% endif %}{{ n }}',
  '{% if list[1] == "b" %}index{% endif %}|{% if nested["deeper"].value %}quoted{% endif %}|{% if withFunction.now == "called" %}fn{% endif %}|{% if withToLiquid.name %}tl{% endif %}',
  '{{ record.size }}|{{ list.size | plus: 1 }}|{{ number | round }}|{{ "a,b" | split: "," | last }}|{{ text | slice: 0, 4 }}',
];

describe('synchronous render loop, tags and values', () => {
  it.each(tagTemplates)('match LiquidJS for %s', (template) => {
    expect(plainTextLiquid.parseAndRenderSync(template, tagScope)).toBe(
      reference.parseAndRenderSync(template, tagScope),
    );
  });

  it('escape every output after its filters in the HTML engine', () => {
    expect(
      liquid.parseAndRenderSync(
        `{% assign quote = "it's \\"x\\" <y> & z" %}{{ quote }}|{{ quote | upcase }}|{{ html }}|{{ html | upcase }}|{{ number }}|{{ list }}`,
        scope,
      ),
    ).toBe(
      reference.parseAndRenderSync(
        `{% assign quote = "it's \\"x\\" <y> & z" %}{{ quote | escape }}|{{ quote | upcase | escape }}|<b>bold</b>|{{ html | upcase | escape }}|{{ number }}|{{ list }}`,
        scope,
      ),
    );
  });

  it('raise the errors LiquidJS raises, at the same place', () => {
    for (const template of [
      'a\n{% if exploding.boom %}x{% endif %}',
      '{% assign x = exploding.bang %}',
      'b\n\n{{ exploding.pop }}',
      '{% case exploding.case %}{% when 1 %}{% endcase %}',
    ]) {
      const caught = (engine: Liquid) => {
        try {
          engine.parseAndRenderSync(template, tagScope);
        } catch (error) {
          return { name: (error as LiquidError).name, message: (error as LiquidError).message };
        }
        return null;
      };
      expect(caught(plainTextLiquid)).not.toBeNull();
      expect(caught(plainTextLiquid)).toEqual(caught(reference));
    }
  });

  it('leave strict variables to LiquidJS', () => {
    expect(() =>
      plainTextLiquid.parseAndRenderSync('{% if missing.deeper %}x{% endif %}', scope, {
        strictVariables: true,
      }),
    ).toThrow('undefined variable: missing');
    expect(() =>
      plainTextLiquid.parseAndRenderSync('{{ missing }}', scope, { strictVariables: true }),
    ).toThrow('undefined variable: missing');
  });

  it('render asynchronously as well, through LiquidJS', async () => {
    const template = tagTemplates[0] as string;
    expect(await plainTextLiquid.parseAndRender(template, tagScope)).toBe(
      reference.parseAndRenderSync(template, tagScope),
    );
  });
});
