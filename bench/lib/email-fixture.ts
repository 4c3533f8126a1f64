import { randomUUID } from 'node:crypto';
import type { BenchAccount } from './account.ts';

export const benchLocales = ['en-US', 'de-DE', 'fr-FR'];

interface Component {
  id: number;
  name: string;
  container: boolean;
  field_definitions: { liquid_variable: string; type: string }[];
}

/** A call to the API as the bench account; `path` is under /api/v1. */
async function api<T>(
  origin: string,
  account: BenchAccount,
  method: string,
  path: string,
  body?: object,
): Promise<T> {
  const response = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { ...account.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A text value for every text-like field of a component, in each locale. */
function valuesFor(component: Component, index: number, headline: string) {
  const byLocale: Record<string, Record<string, { value: string }>> = {};
  for (const locale of benchLocales) {
    const values: Record<string, { value: string }> = {};
    for (const field of component.field_definitions) {
      if (field.type === 'text')
        values[field.liquid_variable] = { value: `${headline} ${index} (${locale})` };
    }
    byLocale[locale] = values;
  }
  return { null_branch: byLocale };
}

/**
 * The Letterset Starter system of the bench account, its components, and a project (of a new team
 * the account belongs to) to put emails in.
 */
export async function starterAndProject(origin: string, account: BenchAccount) {
  const workspace = `/workspaces/${account.workspaceId}`;
  const systems = await api<{ results: { id: number; name: string }[] }>(
    origin,
    account,
    'GET',
    `${workspace}/email_design_systems`,
  );
  const system = systems.results.find((candidate) => candidate.name === 'Letterset Starter');
  if (!system) throw new Error('the bench account has no starter system');
  const { results: components } = await api<{ results: Component[] }>(
    origin,
    account,
    'GET',
    `${workspace}/email_design_systems/${system.id}/components?per=100`,
  );
  const me = await api<{ user: { id: number } }>(origin, account, 'GET', '/me');
  const team = await api<{ id: number }>(origin, account, 'POST', '/teams', {
    name: 'Bench team',
    workspace_id: account.workspaceId,
    badge_color: 'blue',
  });
  await api(origin, account, 'POST', `/teams/${team.id}/users`, { user_id: me.user.id });
  const project = await api<{ id: number }>(origin, account, 'POST', `${workspace}/projects`, {
    name: 'Bench project',
    team_id: team.id,
  });
  return { system, components, project };
}

/**
 * `count` emails of 20 starter-system instances in 3 locales each, and two versions of the content
 * that a PATCH bench sends in turn, so that every PATCH changes the values and records a version.
 */
export async function createBenchEmails(origin: string, account: BenchAccount, count: number) {
  const workspace = `/workspaces/${account.workspaceId}`;
  const { system, components, project } = await starterAndProject(origin, account);
  const container = components.find((component) => component.container);
  const bodyComponents = components.filter((component) => !component.container);
  if (!container || bodyComponents.length === 0) throw new Error('the starter system has no components');
  const instanceIds = Array.from({ length: 20 }, () => randomUUID());
  const content = (emailContent: Record<string, unknown>, headline: string) => ({
    ...emailContent,
    subject: {
      branch_content: { null_branch: Object.fromEntries(benchLocales.map((locale) => [locale, headline])) },
    },
    component_instances: Array.from({ length: 20 }, (_, index) => {
      const component = bodyComponents[index % bodyComponents.length] as Component;
      return {
        id: instanceIds[index],
        component_id: component.id,
        field_values: valuesFor(component, index, headline),
      };
    }),
  });
  const emails = [];
  for (let number = 1; number <= count; number++) {
    const email = await api<{ id: number; email_content: Record<string, unknown> }>(
      origin,
      account,
      'POST',
      `${workspace}/emails`,
      {
        name: `Bench email ${number}`,
        email_design_system_id: system.id,
        project_id: project.id,
        locales: benchLocales,
      },
    );
    await api(origin, account, 'PATCH', `${workspace}/emails/${email.id}`, {
      email_content: content(email.email_content, 'Welcome'),
    });
    emails.push({
      path: `/api/v1${workspace}/emails/${email.id}`,
      patchBodies: ['Spring edit', 'Summer edit'].map((headline) =>
        JSON.stringify({ email_content: content(email.email_content, headline) }),
      ),
    });
  }
  return emails;
}
