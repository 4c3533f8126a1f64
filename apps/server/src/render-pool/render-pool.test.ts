import { type ComponentDefinition, contentFromSimpleRender } from '@letterset/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createRenderPool, type RenderPool } from './render-pool.ts';
import type { PooledRenderInput } from './render-tasks.ts';

const pools: RenderPool[] = [];
function renderPool(threads: number) {
  const created = createRenderPool({ threads, budgetMs: 5_000 });
  pools.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

/** A design system of a container and one component whose template is `template`. */
function input(template: string, designSystemKey?: string): PooledRenderInput {
  const component = (id: number, container: boolean, text: string): ComponentDefinition => ({
    id,
    name: container ? 'container' : 'block',
    label: container ? 'Container' : 'Block',
    container,
    template: text,
    field_definitions: [],
  });
  return {
    designSystem: { id: 1, name: 'System', design_tokens: {}, custom_styles: [] },
    components: [component(1, true, '<body>{{ children }}</body>'), component(2, false, template)],
    ...(designSystemKey === undefined ? {} : { designSystemKey }),
    brandProfile: null,
    content: contentFromSimpleRender(
      { container_component_instance: { component_id: 1 }, component_instances: [{ component_id: 2 }] },
      'en-US',
    ),
    locale: 'en-US',
    mode: 'render_api',
  };
}

async function htmlOf(pool: RenderPool, renderInput: PooledRenderInput) {
  const [output] = await pool.render([renderInput], pool.budget());
  return output?.html;
}

describe('the render pool’s design systems kept by key', () => {
  it('sends a key’s design system once: the worker renders what it keeps, and a new key at once', async () => {
    const pool = renderPool(1);
    expect(await htmlOf(pool, input('<p>first</p>', 'system:1'))).toBe('<body><p>first</p></body>');
    // The same key stands for the same system: what the worker kept renders, not what is given now.
    expect(await htmlOf(pool, input('<p>changed</p>', 'system:1'))).toBe('<body><p>first</p></body>');
    expect(await htmlOf(pool, input('<p>changed</p>', 'system:2'))).toBe('<body><p>changed</p></body>');
    // Without a key the system goes with the task every time.
    expect(await htmlOf(pool, input('<p>unkeyed</p>'))).toBe('<body><p>unkeyed</p></body>');
  });

  it('a worker that lacks a key asks for its system: every worker renders it', async () => {
    const pool = renderPool(2);
    const keyed = input('<p>{{ "kept" | upcase }}</p>', 'system:3');
    const renders = await Promise.all([1, 2, 3, 4, 5, 6].map(() => htmlOf(pool, keyed)));
    expect(renders).toEqual(Array(6).fill('<body><p>KEPT</p></body>'));
  });
});
