import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganization,
  createTestUser,
  signInAs,
  signInMemberWith,
  type TestOrganization,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/harness.ts';
import { startSmtpPeer } from '../../test/smtp-peer.ts';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

describe('emails', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
  let organization: TestOrganization;
  let admin: Headers;
  let base: string;
  let teamId: number;
  let projectId: number;
  let starter: { id: number; components: Record<string, number> };

  const call = (method: Method, url: string, headers: Headers = admin, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const createEmail = async (extra: object = {}, headers: Headers = admin) => {
    const response = await call('POST', `${base}/emails`, headers, {
      name: 'Spring sale',
      email_design_system_id: starter.id,
      project_id: projectId,
      ...extra,
    });
    if (response.statusCode !== 200) throw new Error(`create failed: ${response.body}`);
    return response.json();
  };
  const hero = (headline: string, id: string = randomUUID()) => ({
    id,
    component_id: starter.components.hero,
    field_values: {
      null_branch: {
        'en-US': { headline: { value: headline }, image_url: { value: 'https://cdn.example.com/hero.png' } },
      },
    },
  });
  /** A role with exactly these keys, and a signed-in member of the project's team holding it. */
  const memberWith = (permissions: string[]) =>
    signInMemberWith(app, organization, { adminHeaders: admin, teamId, permissions });

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    app = await buildTestApp({ config: { smtpUrl: smtp.url } });
    organization = await createTestOrganization(app);
    admin = await signInAs(app, organization.admin);
    base = `/api/v1/workspaces/${organization.workspaceId}`;
    const systems = (await call('GET', `${base}/email_design_systems`)).json();
    const id = systems.results.find((system: { name: string }) => system.name === 'Letterset Starter').id;
    const components = (await call('GET', `${base}/email_design_systems/${id}/components?per=100`)).json()
      .results;
    starter = {
      id,
      components: Object.fromEntries(
        components.map((component: { name: string; id: number }) => [component.name, component.id]),
      ),
    };
    teamId = (
      await call('POST', '/api/v1/teams', admin, {
        name: 'Newsletter team',
        workspace_id: organization.workspaceId,
        badge_color: 'blue',
      })
    ).json().id;
    await call('POST', `/api/v1/teams/${teamId}/users`, admin, { user_id: organization.admin.id });
    projectId = (
      await call('POST', `${base}/projects`, admin, { name: 'Newsletters', team_id: teamId })
    ).json().id;
  });
  afterAll(async () => {
    await app.close();
    await smtp.stop();
  });

  describe('creating', () => {
    it('starts as a draft holding the container alone, in the default locale', async () => {
      const email = await createEmail();
      expect(email).toMatchObject({
        status: 'draft',
        name: 'Spring sale',
        project_id: projectId,
        organization_id: organization.organizationId,
        email_design_system_id: starter.id,
        brand_profile_id: null,
        link_tracking_profile_id: null,
        default_locale: 'en-US',
        locales: ['en-US'],
        lock_version: 1,
        last_updated_by: { id: organization.admin.id, first_name: 'Ada' },
      });
      expect(email.email_content).toEqual({
        subject: { branch_content: { null_branch: { 'en-US': '' } } },
        preheader: { branch_content: { null_branch: { 'en-US': '' } } },
        container_component_instance: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          component_id: starter.components.container,
          field_values: {},
        },
        component_instances: [],
      });
    });

    it('starts from a copy of a layout, with fresh instance ids', async () => {
      const layoutHeroId = randomUUID();
      const layout = (
        await call('POST', `${base}/layouts`, admin, {
          name: 'Hero only',
          email_design_system_id: starter.id,
          content: {
            container_component_instance: {
              id: randomUUID(),
              component_id: starter.components.container,
              field_values: {},
            },
            component_instances: [hero('From the layout', layoutHeroId)],
          },
        })
      ).json();
      const email = await createEmail({ layout_id: layout.id, locales: ['de-DE', 'en-US'] });
      expect(email.default_locale).toBe('de-DE');
      const [instance] = email.email_content.component_instances;
      expect(instance.id).not.toBe(layoutHeroId);
      expect(instance.field_values.null_branch['en-US'].headline.value).toBe('From the layout');
    });

    it('answers 422 for what it cannot use', async () => {
      const refused = async (extra: object, field: string) => {
        const response = await call('POST', `${base}/emails`, admin, {
          name: 'Nope',
          email_design_system_id: starter.id,
          project_id: projectId,
          ...extra,
        });
        expect(response.statusCode, response.body).toBe(422);
        return response.json().errors[field];
      };
      expect(await refused({ default_locale: 'fr-FR', locales: ['en-US'] }, 'default_locale')).toEqual([
        'must be one of the email’s locales',
      ]);
      expect(await refused({ locales: ['en-XX'] }, 'locales.0')).toBeDefined();
      expect(await refused({ project_id: 999999 }, 'project_id')).toBeDefined();
      expect(await refused({ email_design_system_id: 999999 }, 'email_design_system_id')).toBeDefined();
      expect(await refused({ brand_profile_id: 999999 }, 'brand_profile_id')).toBeDefined();
      expect(await refused({ layout_id: 999999 }, 'layout_id')).toBeDefined();
      expect(await refused({ ai_agent_id: 3 }, 'ai_agent_id')).toBeDefined();

      const system = (
        await call('POST', `${base}/email_design_systems`, admin, {
          name: 'Branded only',
          access_scope: 'this_workspace_only',
          require_brand_profile_for_use: true,
        })
      ).json();
      expect(await refused({ email_design_system_id: system.id }, 'brand_profile_id')).toEqual([
        'is required: this design system is used through a brand profile',
      ]);
      await call('PATCH', `${base}/email_design_systems/${system.id}`, admin, { archived: true });
      expect(await refused({ email_design_system_id: system.id }, 'email_design_system_id')).toEqual([
        'is archived: new emails cannot use it',
      ]);
    });

    it('uses a design system shared from another workspace', async () => {
      const other = (
        await call('POST', '/api/v1/workspaces', admin, { name: 'Brand team', auto_join: false })
      ).json();
      const shared = (
        await call('POST', `/api/v1/workspaces/${other.id}/email_design_systems/import`, admin, {
          email_design_system: {
            name: 'Shared system',
            access_scope: 'all_workspaces',
            container_component: {
              name: 'container',
              label: 'Container',
              template: '<html><body>{{children}}</body></html>',
              field_definitions: [],
            },
            components: [],
          },
        })
      ).json();
      const email = await createEmail({ email_design_system_id: shared.id });
      expect(email.email_design_system_id).toBe(shared.id);
    });
  });

  describe('listing and access', () => {
    it('lists without content, newest change first, filtered by project, status and name', async () => {
      const otherProject = (
        await call('POST', `${base}/projects`, admin, { name: 'Transactional', team_id: teamId })
      ).json();
      const receipt = await createEmail({ name: 'Receipt', project_id: otherProject.id });
      const list = (await call('GET', `${base}/emails?project_id=${otherProject.id}`)).json();
      expect(list.results).toHaveLength(1);
      expect(list.results[0]).toMatchObject({ id: receipt.id, name: 'Receipt', status: 'draft' });
      expect(list.results[0].email_content).toBeUndefined();
      expect((await call('GET', `${base}/emails?search=recei&status=draft`)).json().results[0].id).toBe(
        receipt.id,
      );
      expect((await call('GET', `${base}/emails?search=recei&status=published`)).json().results).toEqual([]);
    });

    it('hides emails of other teams’ projects (404), and shows them with access_all_projects', async () => {
      const email = await createEmail();
      const outsiderUser = await createTestUser(app, organization, { role: 'Editor' });
      const outsider = await signInAs(app, outsiderUser);
      expect((await call('GET', `${base}/emails/${email.id}`, outsider)).statusCode).toBe(404);
      expect((await call('PATCH', `${base}/emails/${email.id}`, outsider, { name: 'Mine' })).statusCode).toBe(
        404,
      );
      expect((await call('GET', `${base}/emails`, outsider)).json().pagination.total).toBe(0);
      expect(
        (
          await call('POST', `${base}/emails`, outsider, {
            name: 'X',
            email_design_system_id: starter.id,
            project_id: projectId,
          })
        ).statusCode,
      ).toBe(422);

      const overseer = await memberWith(['access_all_projects']);
      expect((await call('GET', `${base}/emails/${email.id}`, overseer)).statusCode).toBe(200);

      // Reads of one email asked for together share a round trip, but never across what callers see.
      const together = await Promise.all(
        [outsider, admin, overseer, outsider].map((headers) =>
          call('GET', `${base}/emails/${email.id}`, headers),
        ),
      );
      expect(together.map((response) => response.statusCode)).toEqual([404, 200, 200, 404]);
      expect(together[1]?.json()).toEqual(together[2]?.json());

      // Reads of different emails asked for together share a query; each gets its own email.
      const others = [await createEmail({ name: 'Second' }), await createEmail({ name: 'Third' })];
      const ids = [email.id, others[0].id, 999_999, others[1].id];
      const batch = await Promise.all(ids.map((id) => call('GET', `${base}/emails/${id}`)));
      expect(batch.map((response) => response.statusCode)).toEqual([200, 200, 404, 200]);
      expect(batch.map((response) => response.statusCode === 200 && response.json().id)).toEqual([
        email.id,
        others[0].id,
        false,
        others[1].id,
      ]);
    });

    it('keeps a project that has emails unless its deletion is confirmed', async () => {
      const project = (
        await call('POST', `${base}/projects`, admin, { name: 'Doomed', team_id: teamId })
      ).json();
      const email = await createEmail({ project_id: project.id, name: 'Last words' });
      const refused = await call('DELETE', `${base}/projects/${project.id}`);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.delete_emails[0]).toContain('“Last words”');
      expect((await call('GET', `${base}/emails/${email.id}`)).statusCode).toBe(200);
      expect((await call('DELETE', `${base}/projects/${project.id}?delete_emails=true`)).statusCode).toBe(
        204,
      );
      expect((await call('GET', `${base}/emails/${email.id}`)).statusCode).toBe(404);
    });

    it('deletes an email; a design system used by emails cannot be deleted', async () => {
      const email = await createEmail();
      expect((await call('DELETE', `${base}/emails/${email.id}`)).statusCode).toBe(204);
      expect((await call('GET', `${base}/emails/${email.id}`)).statusCode).toBe(404);
      const system = (
        await call('POST', `${base}/email_design_systems/${starter.id}/clone`, admin, {
          name: 'Starter copy',
        })
      ).json();
      await createEmail({ email_design_system_id: system.id, name: 'Uses the copy' });
      const refused = await call('DELETE', `${base}/email_design_systems/${system.id}`);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.email_design_system[0]).toContain('“Uses the copy”');
    });
  });

  describe('changing content', () => {
    it('saves content, bumps lock_version and records a version per change', async () => {
      const email = await createEmail();
      const content = {
        ...email.email_content,
        subject: { branch_content: { null_branch: { 'en-US': 'Fresh picks' } } },
        component_instances: [hero('Spring is here')],
      };
      const saved = await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: content,
        lock_version: 1,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().lock_version).toBe(2);
      expect(saved.json().email_content).toEqual(content);
      // GET sends the content as stored rather than through the response schema: same answer.
      const read = await call('GET', `${base}/emails/${email.id}`);
      expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(read.json()).toEqual(saved.json());

      const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json();
      expect(versions.pagination.total).toBe(2);
      expect(versions.results[0].email_data.email_content).toEqual(content);
      expect(versions.results[0].last_updated_by.id).toBe(organization.admin.id);
      expect(versions.results[1].email_data.email_content.component_instances).toEqual([]);
    });

    it('answers 409 with the current email when a second editor saves on a stale version', async () => {
      const email = await createEmail();
      const secondEditor = await memberWith(['update_emails', 'add_remove_reorder_email_components']);
      const first = await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...email.email_content, component_instances: [hero('Mine')] },
        lock_version: email.lock_version,
      });
      expect(first.statusCode).toBe(200);
      const second = await call('PATCH', `${base}/emails/${email.id}`, secondEditor, {
        email_content: { ...email.email_content, component_instances: [hero('Theirs')] },
        lock_version: email.lock_version,
      });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ lock_version: 2, email: { id: email.id, lock_version: 2 } });
      expect(
        second.json().email.email_content.component_instances[0].field_values.null_branch['en-US'].headline
          .value,
      ).toBe('Mine');
      const current = (await call('GET', `${base}/emails/${email.id}`)).json();
      expect(
        current.email_content.component_instances[0].field_values.null_branch['en-US'].headline.value,
      ).toBe('Mine');
    });

    it('lets exactly one of two concurrent writers on the same version win', async () => {
      const email = await createEmail();
      const write = (headline: string) =>
        call('PATCH', `${base}/emails/${email.id}`, admin, {
          email_content: { ...email.email_content, component_instances: [hero(headline)] },
          lock_version: email.lock_version,
        });
      const outcomes = (await Promise.all([write('A'), write('B')]))
        .map((response) => response.statusCode)
        .sort();
      expect(outcomes).toEqual([200, 409]);
      expect((await call('GET', `${base}/emails/${email.id}/versions`)).json().pagination.total).toBe(2);
    });

    it('answers 422 with field paths for content that does not fit the email', async () => {
      const email = await createEmail({ locales: ['en-US', 'de-DE'] });
      const deprecated = (
        await call('POST', `${base}/email_design_systems/${starter.id}/components`, admin, {
          name: `old_banner_${Date.now()}`,
          label: 'Old banner',
          template: '<tr><td>{{ text }}</td></tr>',
          field_definitions: [{ type: 'text', label: 'Text', liquid_variable: 'text', default_value: '' }],
          deprecated: true,
        })
      ).json();
      const good = hero('Fine');
      const response = await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: {
          ...email.email_content,
          component_instances: [
            good,
            { ...hero('Duplicate'), id: good.id },
            { id: randomUUID(), component_id: 999999, field_values: {} },
            { id: randomUUID(), component_id: deprecated.id, field_values: {} },
            {
              id: randomUUID(),
              component_id: starter.components.hero,
              field_values: {
                null_branch: {
                  'fr-FR': { headline: { value: 'Bonjour' } },
                  'en-US': { colour: { value: 'red' } },
                },
                gold: {},
              },
            },
          ],
        },
      });
      expect(response.statusCode).toBe(422);
      const errors = response.json().errors;
      const at = 'email_content.component_instances';
      expect(Object.keys(errors).sort()).toEqual(
        [
          `${at}.1.id`,
          `${at}.2.component_id`,
          `${at}.3.component_id`,
          `${at}.4.field_values.null_branch.fr-FR`,
          `${at}.4.field_values.null_branch.en-US.colour`,
          `${at}.4.field_values.gold`,
        ].sort(),
      );
      expect(errors[`${at}.3.component_id`][0]).toContain('deprecated');
      expect((await call('GET', `${base}/emails/${email.id}`)).json().lock_version).toBe(1);
    });

    it('refuses an instance id that is not a UUID', async () => {
      const email = await createEmail();
      const response = await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...email.email_content, component_instances: [{ ...hero('Bad id'), id: 'h1' }] },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({
        'email_content.component_instances.0.id': ['must be a valid uuid'],
      });
    });

    it('requires the key for each kind of change, naming it in the 403', async () => {
      const email = await createEmail({ locales: ['en-US'] });
      const withInstance = (
        await call('PATCH', `${base}/emails/${email.id}`, admin, {
          email_content: { ...email.email_content, component_instances: [hero('One'), hero('Two')] },
        })
      ).json();
      const valuesOnly = await memberWith(['update_emails']);
      const [one, two] = withInstance.email_content.component_instances;
      const patch = (headers: Headers, payload: object) =>
        call('PATCH', `${base}/emails/${email.id}`, headers, payload);

      const reorder = await patch(valuesOnly, {
        email_content: { ...withInstance.email_content, component_instances: [two, one] },
      });
      expect(reorder.statusCode).toBe(403);
      expect(reorder.json().message).toContain('add_remove_reorder_email_components');

      const attach = await patch(valuesOnly, {
        email_content: {
          ...withInstance.email_content,
          component_instances: [{ ...one, conditional_id: 4 }, two],
        },
      });
      expect(attach.statusCode).toBe(403);
      expect(attach.json().message).toContain('add_remove_conditional_from_components');

      const locales = await patch(valuesOnly, { locales: ['en-US', 'fr-FR'] });
      expect(locales.statusCode).toBe(403);
      expect(locales.json().message).toContain('add_remove_locales_from_emails');

      const edited = structuredClone(one);
      edited.field_values.null_branch['en-US'].headline.value = 'Edited';
      const value = await patch(valuesOnly, {
        email_content: { ...withInstance.email_content, component_instances: [edited, two] },
      });
      expect(value.statusCode, value.body).toBe(200);

      const reader = await memberWith([]);
      expect((await patch(reader, { name: 'Renamed' })).json().message).toContain('update_emails');
    });

    it('adds a locale, and removing one drops its values while versions keep them', async () => {
      const email = await createEmail({ locales: ['en-US', 'de-DE'] });
      const instance = hero('Hello');
      const values: Record<string, object> = instance.field_values.null_branch;
      values['de-DE'] = {
        headline: { value: 'Hallo' },
        image_url: { value: 'https://cdn.example.com/hero.png' },
      };
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...email.email_content, component_instances: [instance] },
      });
      const removed = (
        await call('PATCH', `${base}/emails/${email.id}`, admin, { locales: ['en-US'] })
      ).json();
      expect(removed.locales).toEqual(['en-US']);
      expect(Object.keys(removed.email_content.component_instances[0].field_values.null_branch)).toEqual([
        'en-US',
      ]);
      expect(removed.email_content.subject.branch_content.null_branch).toEqual({ 'en-US': '' });

      const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json().results;
      expect(versions[1].email_data.locales).toEqual(['en-US', 'de-DE']);
      const refused = await call('PATCH', `${base}/emails/${email.id}`, admin, { default_locale: 'de-DE' });
      expect(refused.statusCode).toBe(422);
    });

    it('restores an earlier version as a new one', async () => {
      const email = await createEmail();
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...email.email_content, component_instances: [hero('First draft')] },
      });
      // A rename in between ends the editing session: the second draft is a version of its own.
      await call('PATCH', `${base}/emails/${email.id}`, admin, { name: 'Drafts' });
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...email.email_content, component_instances: [hero('Second draft')] },
      });
      const versions = (await call('GET', `${base}/emails/${email.id}/versions`)).json().results;
      const firstDraft = versions[1];
      const restored = await call(
        'POST',
        `${base}/emails/${email.id}/versions/${firstDraft.version_id}/restore`,
        admin,
      );
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json().email_content).toEqual(firstDraft.email_data.email_content);
      const after = (await call('GET', `${base}/emails/${email.id}/versions`)).json();
      expect(after.pagination.total).toBe(4);
      expect(after.results[0].email_data).toEqual(firstDraft.email_data);
      expect((await call('POST', `${base}/emails/${email.id}/versions/nope/restore`)).statusCode).toBe(404);
    });
  });

  describe('validation, lifecycle, clone, render and test sends', () => {
    it('validates content per instance, branch, locale and field', async () => {
      const email = await createEmail();
      const instance = hero('');
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: {
          ...email.email_content,
          subject: { branch_content: { null_branch: { 'en-US': 'Hello' } } },
          container_component_instance: {
            ...email.email_content.container_component_instance,
            field_values: {
              null_branch: {
                'en-US': {
                  logo_url: { value: 'https://cdn.example.com/logo.png' },
                  logo_alt: { value: 'Acme' },
                  footer_address: { value: '1 Main Street' },
                },
              },
            },
          },
          component_instances: [instance],
        },
      });
      const result = (await call('GET', `${base}/emails/${email.id}/validate_email_content`)).json();
      expect(result.valid).toBe(false);
      expect(result.validation_errors).toEqual({
        [instance.id]: { 'null_branch.en-US.headline': [expect.any(String)] },
      });

      const fixed = structuredClone(instance);
      fixed.field_values.null_branch['en-US'].headline.value = 'Now filled';
      const current = (await call('GET', `${base}/emails/${email.id}`)).json();
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...current.email_content, component_instances: [fixed] },
      });
      expect((await call('GET', `${base}/emails/${email.id}/validate_email_content`)).json()).toEqual({
        valid: true,
        validation_errors: {},
      });
    });

    it('publishes from approved only, force-publishes with its key, and a published email is read-only', async () => {
      const email = await createEmail();
      const notApproved = await call('POST', `${base}/emails/${email.id}/publish`, admin, {});
      expect(notApproved.statusCode).toBe(422);
      expect(notApproved.json().errors.status[0]).toContain('only an approved email can be published');

      const publisher = await memberWith(['publish_emails']);
      const noForce = await call('POST', `${base}/emails/${email.id}/publish`, publisher, { force: true });
      expect(noForce.statusCode).toBe(403);
      expect(noForce.json().message).toContain('force_publish_emails');

      const forced = await call('POST', `${base}/emails/${email.id}/publish`, admin, { force: true });
      expect(forced.json().status).toBe('published');
      const edit = await call('PATCH', `${base}/emails/${email.id}`, admin, { name: 'Late change' });
      expect(edit.statusCode).toBe(422);
      expect(edit.json().errors.status[0]).toContain('read-only');

      const converted = await call('POST', `${base}/emails/${email.id}/convert_to_draft`, admin);
      expect(converted.json().status).toBe('draft');
      expect((await call('POST', `${base}/emails/${email.id}/convert_to_draft`, admin)).statusCode).toBe(422);
      expect(
        (await call('PATCH', `${base}/emails/${email.id}`, admin, { name: 'Late change' })).statusCode,
      ).toBe(200);
    });

    it('clones an email as a draft with its content and a first version', async () => {
      const email = await createEmail();
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: { ...email.email_content, component_instances: [hero('Original')] },
      });
      await call('POST', `${base}/emails/${email.id}/publish`, admin, { force: true });
      const copy = await call('POST', `${base}/emails/${email.id}/clone`, admin, {
        name: 'Spring sale (copy)',
      });
      expect(copy.statusCode).toBe(200);
      expect(copy.json()).toMatchObject({
        name: 'Spring sale (copy)',
        status: 'draft',
        project_id: projectId,
      });
      expect(copy.json().id).not.toBe(email.id);
      expect(
        copy.json().email_content.component_instances[0].field_values.null_branch['en-US'].headline.value,
      ).toBe('Original');
      expect((await call('GET', `${base}/emails/${copy.json().id}/versions`)).json().pagination.total).toBe(
        1,
      );
      const ai = await call('POST', `${base}/emails/${email.id}/clone`, admin, {
        name: 'AI copy',
        clone_with_ai: true,
      });
      expect(ai.statusCode).toBe(422);
    });

    it('renders the saved email per locale, right to left where the language is', async () => {
      const email = await createEmail({ locales: ['en-US', 'he-IL'] });
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: {
          ...email.email_content,
          subject: { branch_content: { null_branch: { 'en-US': 'Hello', 'he-IL': 'שלום' } } },
          component_instances: [hero('Welcome aboard')],
        },
      });
      const english = await call('POST', `${base}/emails/${email.id}/locales/en-US/render`, admin, {});
      expect(english.statusCode, english.body).toBe(200);
      expect(english.json().subject).toBe('Hello');
      expect(english.json().html).toContain('Welcome aboard');
      expect(english.json().html).toContain('dir="ltr"');
      expect(english.json().plain_text).toContain('Welcome aboard');
      const hebrew = (
        await call('POST', `${base}/emails/${email.id}/locales/he-IL/render`, admin, {})
      ).json();
      expect(hebrew.subject).toBe('שלום');
      expect(hebrew.html).toContain('lang="he-IL" dir="rtl"');
      const missing = await call('POST', `${base}/emails/${email.id}/locales/fr-FR/render`, admin, {});
      expect(missing.statusCode).toBe(422);
    });

    it('checks conditionals against the workspace and renders them with the email’s link tracking', async () => {
      const tracking = (
        await call('POST', `${base}/link_tracking_profiles`, admin, {
          name: 'UTM for emails',
          parameters: [{ type: 'fixed_value', parameter: 'utm_source', value: 'letterset' }],
        })
      ).json();
      const conditional = (
        await call('POST', `${base}/conditionals`, admin, {
          label: 'Members',
          branches: [
            { key: 'member', label: 'Members' },
            { key: 'other', label: 'Everyone else' },
          ],
          default_value: {
            closing: '{% endif %}',
            branch_values: { member: '{% if member %}', other: '{% else %}' },
          },
        })
      ).json();
      const email = await createEmail({ link_tracking_profile_id: 999999 }).catch((error: Error) => error);
      expect(String(email)).toContain('is not a link tracking profile of this workspace');
      const tracked = await createEmail({ link_tracking_profile_id: tracking.id });
      expect(tracked.link_tracking_profile_id).toBe(tracking.id);

      const button = (branch: string, text: string) => ({
        [branch]: { 'en-US': { text: { value: text }, url: { value: 'https://shop.example.com/sale' } } },
      });
      const withButton = (conditionalId: number, field_values: object) => ({
        email_content: {
          ...tracked.email_content,
          component_instances: [
            {
              id: randomUUID(),
              component_id: starter.components.button,
              conditional_id: conditionalId,
              field_values,
            },
          ],
        },
      });
      const unknown = await call(
        'PATCH',
        `${base}/emails/${tracked.id}`,
        admin,
        withButton(999999, button('member', 'x')),
      );
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors['email_content.component_instances.0.conditional_id']).toEqual([
        'is not a conditional of this workspace',
      ]);
      const strayBranch = await call(
        'PATCH',
        `${base}/emails/${tracked.id}`,
        admin,
        withButton(conditional.id, button('gold', 'x')),
      );
      expect(strayBranch.statusCode).toBe(422);
      expect(strayBranch.json().errors['email_content.component_instances.0']).toEqual([
        'holds branch keys the conditional does not have: gold',
      ]);

      const saved = await call(
        'PATCH',
        `${base}/emails/${tracked.id}`,
        admin,
        withButton(conditional.id, {
          ...button('member', 'Members save more'),
          ...button('other', 'Join today'),
        }),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      const rendered = (
        await call('POST', `${base}/emails/${tracked.id}/locales/en-US/render`, admin, {
          branch_selection: { [conditional.id]: 'other' },
        })
      ).json();
      expect(rendered.html).toContain('Join today');
      expect(rendered.html).not.toContain('Members save more');
      expect(rendered.html).toContain('https://shop.example.com/sale?utm_source=letterset');

      // Validation covers every branch of the conditional, even one nobody filled in.
      await call('PATCH', `${base}/conditionals/${conditional.id}`, admin, {
        branches: [...conditional.branches, { key: 'vip', label: 'VIP' }],
        default_value: {
          closing: '{% endif %}',
          branch_values: { member: '{% if member %}', vip: '{% elsif vip %}', other: '{% else %}' },
        },
      });
      const validation = (await call('GET', `${base}/emails/${tracked.id}/validate_email_content`)).json();
      const instanceId = saved.json().email_content.component_instances[0].id;
      expect(
        Object.keys(validation.validation_errors[instanceId] ?? {}).some((key) => key.startsWith('vip.')),
      ).toBe(true);
    });

    it('sends a test through SMTP with the rendered HTML and a [Test] subject', async () => {
      const email = await createEmail();
      await call('PATCH', `${base}/emails/${email.id}`, admin, {
        email_content: {
          ...email.email_content,
          subject: { branch_content: { null_branch: { 'en-US': 'Spring picks' } } },
          component_instances: [hero('Tested headline')],
        },
      });
      const before = smtp.received.length;
      const sent = await call('POST', `${base}/emails/${email.id}/test_sends`, admin, {
        recipients: ['qa@example.com', 'boss@example.com'],
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toEqual({
        recipients: ['qa@example.com', 'boss@example.com'],
        locale: 'en-US',
        subject: '[Test] Spring picks',
        delivered_via: 'smtp',
      });
      const mails = smtp.received.slice(before);
      expect(mails.flatMap((mail) => mail.to).sort()).toEqual(['boss@example.com', 'qa@example.com']);
      expect(mails[0]?.raw).toContain('Subject: [Test] Spring picks');
      expect(mails[0]?.raw).toContain('Tested headline');

      const tooMany = await call('POST', `${base}/emails/${email.id}/test_sends`, admin, {
        recipients: Array.from({ length: 11 }, (_, index) => `person${index}@example.com`),
      });
      expect(tooMany.statusCode).toBe(422);
      const notAnAddress = await call('POST', `${base}/emails/${email.id}/test_sends`, admin, {
        recipients: ['nope'],
      });
      expect(notAnAddress.statusCode).toBe(422);
      const withoutKey = await memberWith(['update_emails']);
      expect(
        (
          await call('POST', `${base}/emails/${email.id}/test_sends`, withoutKey, {
            recipients: ['a@example.com'],
          })
        ).statusCode,
      ).toBe(403);
    });
  });
});
