import { starterLayouts } from '@letterset/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createStarterProject,
  createTestOrganization,
  type StarterProject,
  signInAs,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';

interface Instance {
  id: string;
  component_id: number;
  field_values: Record<string, Record<string, Record<string, { value: unknown }>>>;
}
interface LayoutResponse {
  id: number;
  name: string;
  email_design_system_id: number;
  locales: string[];
  content: {
    subject: { branch_content: Record<string, Record<string, string>> };
    preheader: { branch_content: Record<string, Record<string, string>> };
    container_component_instance: Instance;
    component_instances: Instance[];
  };
}

const starterNames = ['Event invitation', 'Newsletter', 'Product launch', 'Promotion', 'Receipt', 'Welcome'];

describe('the Letterset Starter’s layouts', () => {
  let app: TestApp;
  let organization: TestOrganization;
  let admin: Record<string, string>;
  let base: string;
  let project: StarterProject;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const listLayouts = async (workspaceBase: string, headers: Record<string, string>, systemId: number) =>
    (
      await app.inject({
        method: 'GET',
        url: `${workspaceBase}/layouts?email_design_system_id=${systemId}&sort=name_asc&per=100`,
        headers,
      })
    ).json().results as LayoutResponse[];

  beforeAll(async () => {
    app = await buildTestApp();
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    project = await createStarterProject(app, organization, admin, { team: 'Launch', project: 'Spring' });
  });
  afterAll(() => app.close());

  it('come with a new organization’s first workspace, built from its own starter’s components', async () => {
    const layouts = await listLayouts(base, admin, project.starter.id);
    expect(layouts.map((layout) => layout.name)).toEqual(starterNames);
    const starterComponentIds = new Set(Object.values(project.starter.components));
    for (const layout of layouts) {
      const source = starterLayouts().find((candidate) => candidate.name === layout.name);
      expect(layout.locales).toEqual(['en-US']);
      expect(layout.content.subject.branch_content.null_branch?.['en-US']).toBe(source?.subject);
      expect(layout.content.preheader.branch_content.null_branch?.['en-US']).toBe(source?.preheader);
      expect(layout.content.container_component_instance.component_id).toBe(
        project.starter.components.container,
      );
      expect(layout.content.component_instances.map((instance) => instance.component_id)).toEqual(
        source?.sections.map((section) => project.starter.components[section.component]),
      );
      for (const instance of layout.content.component_instances) {
        expect(starterComponentIds.has(instance.component_id)).toBe(true);
      }
    }
  });

  it('are each organization’s own', async () => {
    const other = await createTestOrganization(app);
    const otherAdmin = await signInAs(app, other.admin);
    const otherBase = `/api/v1/workspaces/${other.workspaceId}`;
    const otherProject = await createStarterProject(app, other, otherAdmin, { team: 'T', project: 'P' });
    const otherLayouts = await listLayouts(otherBase, otherAdmin, otherProject.starter.id);
    expect(otherLayouts.map((layout) => layout.name)).toEqual(starterNames);
    const ours = await listLayouts(base, admin, project.starter.id);
    const ourIds = new Set(ours.map((layout) => layout.id));
    expect(otherLayouts.some((layout) => ourIds.has(layout.id))).toBe(false);
    const [theirs] = otherLayouts;
    expect((await call('GET', `${base}/layouts/${theirs?.id}`)).statusCode).toBe(404);
  });

  it.each(starterNames)(
    '%s starts an email with its content, subject and preheader, ready to send',
    async (name) => {
      const layout = (await listLayouts(base, admin, project.starter.id)).find(
        (candidate) => candidate.name === name,
      );
      if (!layout) throw new Error(`no layout ${name}`);
      const created = await call('POST', `${base}/emails`, {
        name: `From ${name}`,
        project_id: project.projectId,
        email_design_system_id: project.starter.id,
        layout_id: layout.id,
        locales: ['en-US'],
        default_locale: 'en-US',
      });
      expect(created.statusCode, created.body).toBe(200);
      const email = created.json();
      expect(email.email_content.subject).toEqual(layout.content.subject);
      expect(email.email_content.preheader).toEqual(layout.content.preheader);
      expect(
        email.email_content.component_instances.map((instance: Instance) => [
          instance.component_id,
          instance.field_values,
        ]),
      ).toEqual(
        layout.content.component_instances.map((instance) => [instance.component_id, instance.field_values]),
      );
      // The email's instances are its own.
      const layoutInstanceIds = new Set(layout.content.component_instances.map((instance) => instance.id));
      expect(
        email.email_content.component_instances.some((instance: Instance) =>
          layoutInstanceIds.has(instance.id),
        ),
      ).toBe(false);

      const checks = await call('GET', `${base}/emails/${email.id}/checks`);
      expect(checks.statusCode, checks.body).toBe(200);
      expect(checks.json()).toMatchObject({ ready: true, blocking_count: 0, warning_count: 0, problems: [] });
    },
  );

  it('start an email in another locale too, its subject blank there until translated', async () => {
    const [layout] = await listLayouts(base, admin, project.starter.id);
    const email = (
      await call('POST', `${base}/emails`, {
        name: 'Two locales',
        project_id: project.projectId,
        email_design_system_id: project.starter.id,
        layout_id: layout?.id,
        locales: ['en-US', 'de-DE'],
        default_locale: 'en-US',
      })
    ).json();
    expect(email.email_content.subject.branch_content.null_branch).toEqual({
      'en-US': layout?.content.subject.branch_content.null_branch?.['en-US'],
      'de-DE': '',
    });
  });
});
