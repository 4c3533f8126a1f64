import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ComponentInstance, EmailContent } from '../content/types.ts';
import type { ComponentDefinition } from './design-system.ts';
import { diagnosticCodes } from './diagnostics.ts';
import { type RenderBudget, type RenderInput, startRenderBudget } from './render.ts';
import { render } from './render-email.ts';

const container: ComponentDefinition = {
  id: 1,
  name: 'container',
  label: 'Email',
  container: true,
  template: '<main>{{ children }}</main>',
  field_definitions: [],
};
const paragraph: ComponentDefinition = {
  id: 2,
  name: 'paragraph',
  label: 'Paragraph',
  container: false,
  template: '<p>{{ copy }}</p>',
  field_definitions: [{ type: 'text', label: 'Copy', liquid_variable: 'copy', default_value: 'Hello' }],
};
/** The runaway of the resource-exhaustion report: 10^8 empty iterations. */
const runaway: ComponentDefinition = {
  id: 3,
  name: 'runaway_loop',
  label: 'Runaway',
  container: false,
  template: '{% for i in (1..10000) %}{% for j in (1..10000) %}{% endfor %}{% endfor %}x',
  field_definitions: [],
};

function instances(componentIds: number[]): ComponentInstance[] {
  return componentIds.map((componentId, index) => ({
    id: `instance-${index}`,
    component_id: componentId,
    field_values: {},
  }));
}

function email(componentIds: number[]): EmailContent {
  return {
    subject: { branch_content: { null_branch: { 'en-US': 'Subject' } } },
    preheader: { branch_content: { null_branch: { 'en-US': '' } } },
    container_component_instance: { id: 'container-instance', component_id: 1, field_values: {} },
    component_instances: instances(componentIds),
  };
}

function input(componentIds: number[], overrides: Partial<RenderInput> = {}): RenderInput {
  return {
    designSystem: { id: 1, name: 'System', design_tokens: {}, custom_styles: [] },
    components: [container, paragraph, runaway],
    brandProfile: null,
    content: email(componentIds),
    locale: 'en-US',
    mode: 'render_api',
    strict: true,
    // The time budget is what is tested: the range allocations must not stop the loop first.
    limits: { memoryLimit: 1e12 },
    ...overrides,
  };
}

/** A clock the test moves by hand. */
function manualClock(start = 1000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('render time budget', () => {
  it('is shared by every instance: thirty runaways cost one budget, not thirty', () => {
    const budgetMs = 150;
    const started = performance.now();
    const output = render(
      input(
        Array.from({ length: 30 }, () => 3),
        { budget: startRenderBudget(budgetMs, () => performance.now()) },
      ),
    );
    const elapsed = performance.now() - started;
    // Thirty instances at a per-instance limit would take thirty budgets.
    expect(elapsed).toBeLessThan(budgetMs * 5);
    const errors = output.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    expect(errors[0]).toMatchObject({
      code: diagnosticCodes.renderLimit,
      componentName: 'runaway_loop',
      componentInstanceId: 'instance-0',
    });
    expect(errors[0]?.message).toContain(`${budgetMs} ms`);
    // The others never started; they are counted once, not reported thirty times.
    expect(errors.at(-1)?.message).toMatch(/^\d+ component instances were not rendered/);
    expect(errors.length).toBeLessThanOrEqual(3);
  });

  it('skips every instance once the budget is spent, and names how many', () => {
    const clock = manualClock();
    const budget = startRenderBudget(100, clock.now);
    clock.advance(100);
    const started: number[] = [];
    const output = render(
      input([2, 2, 2], { budget, onInstanceStart: (position) => started.push(position) }),
    );
    expect(started).toEqual([]);
    expect(output.html).toBe('');
    expect(output.diagnostics).toEqual([
      {
        code: diagnosticCodes.renderLimit,
        severity: 'error',
        message:
          '4 component instances were not rendered: rendering took longer than the time budget of 100 ms, which the whole render shares',
      },
    ]);
  });

  it('is shared by the renders given the same budget (the locales of one request)', () => {
    const clock = manualClock();
    const budget: RenderBudget = startRenderBudget(100, clock.now);
    const first = render(input([2], { budget }));
    expect(first.diagnostics).toEqual([]);
    expect(first.html).toBe('<main><p>Hello</p></main>');
    clock.advance(150);
    const second = render(input([2], { budget }));
    expect(second.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([diagnosticCodes.renderLimit]);
  });

  it('renders an instance only while time is left, whatever the clock says', () => {
    // Each instance takes `cost` ms on the clock: exactly the instances that start before the
    // deadline render, the rest are skipped, and the container never renders once one was skipped.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 0, maxLength: 12 }),
        (budgetMs, costs) => {
          const clock = manualClock();
          const budget = startRenderBudget(budgetMs, clock.now);
          const started: number[] = [];
          const output = render(
            input(
              costs.map(() => 2),
              {
                budget,
                onInstanceStart: (position) => {
                  started.push(position);
                  clock.advance(position === -1 ? 0 : (costs[position] ?? 0));
                },
              },
            ),
          );
          let spent = 0;
          const expected: number[] = [];
          for (const [position, cost] of costs.entries()) {
            if (spent >= budgetMs) break;
            expected.push(position);
            spent += cost;
          }
          const containerRenders = spent < budgetMs;
          expect(started).toEqual(containerRenders ? [...expected, -1] : expected);
          const skipped = costs.length - expected.length + (containerRenders ? 0 : 1);
          expect(output.diagnostics.length).toBe(skipped > 0 ? 1 : 0);
          expect(output.html.split('<p>Hello</p>').length - 1).toBe(expected.length);
        },
      ),
    );
  });

  it('without a budget, keeps the limit per instance', () => {
    const output = render(input([3, 3], { limits: { renderLimitMs: 30, memoryLimit: 1e12 } }));
    const limited = output.diagnostics.filter(
      (diagnostic) => diagnostic.code === diagnosticCodes.renderLimit,
    );
    // Each instance had its own limit: both ran and were stopped.
    expect(limited.map((diagnostic) => diagnostic.componentInstanceId)).toEqual(['instance-0', 'instance-1']);
  });
});
