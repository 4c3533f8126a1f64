import type { BenchAccount } from './account.ts';

interface Component {
  id: number;
  name: string;
  container: boolean;
}

/**
 * Bodies for `POST /workspaces/{id}/renders`: the 20-component newsletter of the render bench,
 * in the simple shape a new user sends, built from the starter system's component ids. Each body
 * carries its own number in the headline and the first product's name, so no two requests of a
 * run ask for the same thing.
 */
export async function renderRequestBodies(origin: string, account: BenchAccount) {
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${origin}/api/v1/workspaces/${account.workspaceId}${path}`, {
      headers: account.headers,
    });
    if (!response.ok) throw new Error(`GET ${path} failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const { results: systems } = await get<{ results: { id: number; name: string }[] }>(
    '/email_design_systems',
  );
  const system = systems.find((candidate) => candidate.name === 'Letterset Starter');
  if (!system) throw new Error('the bench account has no starter system');
  const { results: components } = await get<{ results: Component[] }>(
    `/email_design_systems/${system.id}/components?per=100`,
  );
  const idOf = (name: string) => {
    const component = components.find((candidate) => candidate.name === name);
    if (!component) throw new Error(`The starter has no ${name} component`);
    return component.id;
  };
  const container = components.find((component) => component.container);
  if (!container) throw new Error('the starter system has no container');
  const instance = (name: string, fieldValues: Record<string, string | number | boolean> = {}) => ({
    component_id: idOf(name),
    field_values: fieldValues,
  });
  const products = ['Canvas tote', 'Straw hat', 'Sandals'];
  return {
    url: `${origin}/api/v1/workspaces/${account.workspaceId}/renders`,
    body: (number: number) =>
      JSON.stringify({
        email_design_system_id: system.id,
        content: {
          subject: `Spring is here (${number})`,
          preheader: 'Ten new things for warmer days',
          container_component_instance: { component_id: container.id },
          component_instances: [
            instance('header', { show_view_online: true }),
            instance('hero', {
              headline: `Spring is here, reader ${number}`,
              subheadline: 'Ten new things for warmer days & longer evenings.',
            }),
            instance('heading', { text: 'New this week' }),
            instance('rich_text', {
              body: '<p>Hello! Our <strong>spring collection</strong> has landed. Here is what our team is <em>wearing</em> this season, with <a href="https://example.com/spring">free returns</a>.</p><ul><li>Light fabrics</li><li>Bright colors</li></ul>',
            }),
            instance('button', {
              text: 'Shop the collection',
              url: `https://example.com/spring?utm_source=email&reader=${number}`,
            }),
            instance('divider'),
            instance('image_text', { headline: 'Made to last', image_position: 'left' }),
            instance('image_text', { headline: 'Packed in paper', image_position: 'right' }),
            instance('spacer', { height: 16 }),
            instance('product_card', { name: `Linen shirt no. ${number}`, price: '$59.00' }),
            ...products.map((name) => instance('product_card', { name, price: '$24.00' })),
            instance('divider'),
            instance('heading', { text: 'From the journal' }),
            instance('image', { image_alt: 'A picnic in the park', link_url: 'https://example.com/journal' }),
            instance('rich_text', {
              body: '<p>Five picnic spots our customers love, and what to pack for each.</p>',
            }),
            instance('button', {
              text: 'Read the story',
              url: 'https://example.com/journal/picnics',
              style: 'secondary',
            }),
            instance('social_links'),
            instance('footer', { unsubscribe_url: `https://example.com/unsubscribe?u=${number}` }),
          ],
        },
      }),
  };
}
