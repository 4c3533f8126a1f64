import { localeCodes } from '@letterset/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { emailStatuses, exportTypes } from '../../db/schema.ts';
import { PaginationQuery, pageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../http/principal.ts';
import type { Services } from '../../services.ts';
import { everyComponent } from '../components/components.service.ts';
import { ListEmailDesignSystemsQuery } from '../email-design-systems/email-design-systems.schemas.ts';
import { listDesignSystems } from '../email-design-systems/email-design-systems.service.ts';
import { getEmail } from '../emails/email-visibility.ts';
import { renderEmail } from '../emails/emails.rendering.ts';
import {
  CreateEmailBody,
  ListEmailsQuery,
  RenderEmailBody,
  UpdateEmailBody,
} from '../emails/emails.schemas.ts';
import { createEmail, listEmails, updateEmail } from '../emails/emails.service.ts';
import { CreateExportBody } from '../exports/exports.schemas.ts';
import { createExport, getExport } from '../exports/exports.service.ts';
import { ListProjectsQuery } from '../projects/projects.schemas.ts';
import { listProjects } from '../projects/projects.service.ts';
import { listWorkspaces } from '../workspaces/workspaces.service.ts';
import { checkedInput } from './mcp-validation.ts';

/** The HTTP API itself, which tools mirror (not a service): its schemas and its routes' permissions. */
export type McpApi = Pick<FastifyInstance, 'getSchemas' | 'routePermissions'>;

export interface ToolContext {
  services: Services;
  http: McpApi;
  principal: Principal;
}

export interface ToolOutcome {
  result: unknown;
  /** The record the call made or touched, for the audit log. */
  resourceId?: number | string | null;
}

type Method = 'GET' | 'POST' | 'PATCH';

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  /**
   * The API operation the tool is: its declared permission key is required, and its workspace
   * (`workspace_id`) must be one the person may enter, exactly as on the API.
   */
  mirrors: { method: Method; url: string };
  action: 'read' | 'create' | 'update';
  /** The record named by the arguments, recorded in the audit log even when the call is refused. */
  resourceIdOf?: (input: z.output<Input>) => number | undefined;
  run: (context: ToolContext, input: z.output<Input>) => Promise<ToolOutcome>;
}

function tool<Input extends z.ZodObject>(definition: ToolDefinition<Input>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

const id = (description: string) => z.number().int().min(1).describe(description);
const workspaceId = id('The workspace, as list_workspaces gives it');
const page = z.number().int().min(1).optional().describe('The page to read, counted from 1 (default 1)');
const per = z.number().int().min(1).optional().describe('Records per page: 10 by default, at most 100');
const locale = z.enum(localeCodes as [string, ...string[]]).describe('A locale code such as en-US');

const emailContentDescription =
  'The email’s whole content, as get_email returns it in email_content: subject and preheader ' +
  '({branch_content: {branch: {locale: text}}}), container_component_instance, and component_instances, each ' +
  '{id (a UUID of your choosing for a new instance), component_id (from list_components), field_values: ' +
  '{branch: {locale: {liquid_variable: {value}}}}}. Without a conditional the branch key is null_branch.';

const api = '/api/v1/workspaces/:workspace_id';

export const toolDefinitions: ToolDefinition[] = [
  tool({
    name: 'list_workspaces',
    title: 'List workspaces',
    description:
      'The workspaces you can work in, by name. Every other tool takes a workspace_id from this list.',
    input: z.object({ page, per }),
    mirrors: { method: 'GET', url: '/api/v1/workspaces' },
    action: 'read',
    run: async ({ services, http, principal }, input) => {
      const query = checkedInput(http, PaginationQuery, input, 'querystring');
      return { result: await listWorkspaces(services, principal, pageRequest(query)) };
    },
  }),
  tool({
    name: 'list_projects',
    title: 'List projects',
    description:
      'The projects of a workspace that you can see (those of your teams, or all with access_all_projects), ' +
      'sorted by name, paginated. Emails belong to projects.',
    input: z.object({
      workspace_id: workspaceId,
      search: z.string().optional().describe('Part of the project name, any case'),
      team_id: id('Only the projects of this team').optional(),
      page,
      per,
    }),
    mirrors: { method: 'GET', url: `${api}/projects` },
    action: 'read',
    run: async ({ services, http, principal }, { workspace_id, ...filters }) => {
      const query = checkedInput(http, ListProjectsQuery, filters, 'querystring');
      return { result: await listProjects(services, principal, workspace_id, query, pageRequest(query)) };
    },
  }),
  tool({
    name: 'list_emails',
    title: 'List emails',
    description:
      'Emails of a workspace in projects you can see, most recently changed first, without their content ' +
      '(use get_email for that). Filter by project, status, or part of the name; paginated.',
    input: z.object({
      workspace_id: workspaceId,
      project_id: id('Only the emails of this project').optional(),
      status: z.enum(emailStatuses).optional().describe('Only emails in this status'),
      search: z.string().optional().describe('Part of the email name, any case'),
      page,
      per,
    }),
    mirrors: { method: 'GET', url: `${api}/emails` },
    action: 'read',
    run: async ({ services, http, principal }, { workspace_id, ...filters }) => {
      const query = checkedInput(http, ListEmailsQuery, filters, 'querystring');
      return { result: await listEmails(services, principal, workspace_id, query, pageRequest(query)) };
    },
  }),
  tool({
    name: 'list_design_systems',
    title: 'List email design systems',
    description:
      'The email design systems a workspace can use (its own and those shared with every workspace), not ' +
      'archived, by name. An email is built from the components of one design system.',
    input: z.object({
      workspace_id: workspaceId,
      search: z.string().optional().describe('Part of the design system name, any case'),
      page,
      per,
    }),
    mirrors: { method: 'GET', url: `${api}/email_design_systems` },
    action: 'read',
    run: async ({ services, http, principal }, { workspace_id, ...filters }) => {
      const query = checkedInput(http, ListEmailDesignSystemsQuery, filters, 'querystring');
      return {
        result: await listDesignSystems(services, principal, workspace_id, query, pageRequest(query)),
      };
    },
  }),
  tool({
    name: 'list_components',
    title: 'List the components of a design system',
    description:
      'The components of an email design system: the container first, then the palette order, each with its ' +
      'field definitions (liquid_variable, type, validations, default). These are the only building blocks ' +
      'and fields an email of that system can have. With a brand profile, as that brand sees them.',
    input: z.object({
      workspace_id: workspaceId,
      email_design_system_id: id('The design system, from list_design_systems'),
      brand_profile_id: id('Show the components as this brand profile of the system sees them').optional(),
      include_templates: z
        .boolean()
        .optional()
        .describe('Also return each component’s Liquid/HTML template (long); false by default'),
    }),
    mirrors: { method: 'GET', url: `${api}/email_design_systems/:email_design_system_id/components` },
    action: 'read',
    resourceIdOf: (input) => input.email_design_system_id,
    run: async ({ services, principal }, input) => {
      // The whole palette: an assistant building an email needs every component, not a page.
      const results = await everyComponent(
        services,
        principal,
        input.workspace_id,
        input.email_design_system_id,
        input.brand_profile_id,
      );
      return {
        result: {
          results: input.include_templates
            ? results
            : results.map(({ template: _template, ...component }) => component),
        },
      };
    },
  }),
  tool({
    name: 'get_email',
    title: 'Get an email',
    description:
      'One email with its whole content (email_content) and its lock_version, which update_email_content ' +
      'needs.',
    input: z.object({ workspace_id: workspaceId, email_id: id('The email, from list_emails') }),
    mirrors: { method: 'GET', url: `${api}/emails/:id` },
    action: 'read',
    resourceIdOf: (input) => input.email_id,
    run: async ({ services, principal }, input) => ({
      result: await getEmail(services, principal, input.workspace_id, input.email_id),
    }),
  }),
  tool({
    name: 'create_email',
    title: 'Create an email',
    description:
      'Creates an email in a project, from a design system (not archived). With a layout of the same system it ' +
      'starts as a copy of the layout’s content; otherwise as the container alone. locales defaults to ' +
      '[default_locale], default_locale to en-US. Returns the email with its content and lock_version.',
    input: z.object({
      workspace_id: workspaceId,
      name: z.string().describe('The email’s name'),
      project_id: id('The project, from list_projects'),
      email_design_system_id: id('The design system, from list_design_systems'),
      layout_id: id('Start from a copy of this layout’s content').optional(),
      brand_profile_id: id('A brand profile of the design system').optional(),
      default_locale: locale.optional(),
      locales: z.array(locale).optional().describe('The locales the email is written in'),
    }),
    mirrors: { method: 'POST', url: `${api}/emails` },
    action: 'create',
    run: async ({ services, http, principal }, { workspace_id, ...fields }) => {
      const body = checkedInput(http, CreateEmailBody, fields);
      const email = await createEmail(services, principal, workspace_id, body);
      return { result: email, resourceId: email.id };
    },
  }),
  tool({
    name: 'update_email_content',
    title: 'Change an email’s content',
    description:
      'Replaces the email’s content with email_content, checked against its design system’s components and ' +
      'field validations. Send the lock_version you read with get_email: if someone saved since, nothing is ' +
      'written and the error (409) gives the current lock_version; read the email again and redo the change. ' +
      'Adding, removing or reordering instances needs add_remove_reorder_email_components. Emails in review, ' +
      'approved or published cannot be changed.',
    input: z.object({
      workspace_id: workspaceId,
      email_id: id('The email, from list_emails'),
      email_content: z.record(z.string(), z.unknown()).describe(emailContentDescription),
      lock_version: z.number().int().describe('The lock_version of the email as you read it'),
    }),
    mirrors: { method: 'PATCH', url: `${api}/emails/:id` },
    action: 'update',
    resourceIdOf: (input) => input.email_id,
    run: async ({ services, http, principal }, input) => {
      const body = checkedInput(http, UpdateEmailBody, {
        email_content: input.email_content,
        lock_version: input.lock_version,
      });
      // Every tool call is its own audit entry (see the MCP server's audit), sessions or not.
      const saved = await updateEmail(services, principal, input.workspace_id, input.email_id, body);
      return { result: saved.email };
    },
  }),
  tool({
    name: 'render_email',
    title: 'Render an email',
    description:
      'The saved email in one locale as it would be sent: HTML (CSS inlined), subject, preheader and plain ' +
      'text. Conditional content shows the branch named in branch_selection, else the conditional’s default branch (its last unless chosen).',
    input: z.object({
      workspace_id: workspaceId,
      email_id: id('The email, from list_emails'),
      locale: locale.optional().describe('One of the email’s locales; its default locale when left out'),
      branch_selection: z
        .record(z.string(), z.string())
        .optional()
        .describe('Conditional id → the branch key to show'),
    }),
    mirrors: { method: 'POST', url: `${api}/emails/:id/locales/:locale/render` },
    action: 'read',
    resourceIdOf: (input) => input.email_id,
    run: async ({ services, http, principal }, input) => {
      const body = checkedInput(http, RenderEmailBody, { branch_selection: input.branch_selection });
      const chosenLocale =
        input.locale ??
        (await getEmail(services, principal, input.workspace_id, input.email_id)).default_locale;
      const rendered = await renderEmail(
        services,
        principal,
        input.workspace_id,
        input.email_id,
        chosenLocale,
        body.branch_selection,
      );
      return { result: { locale: chosenLocale, ...rendered } };
    },
  }),
  tool({
    name: 'start_export',
    title: 'Export an email',
    description:
      'Starts exporting an email: html (a zip with a folder per locale), json (the outputs as one document) or ' +
      'pdf. The pre-send checks run first; a blocking problem refuses the export (422, listed by locale). The ' +
      'export then runs in the background: follow it with get_export, which gives the download link when done.',
    input: z.object({
      workspace_id: workspaceId,
      email_id: id('The email, from list_emails'),
      export_type: z
        .enum(exportTypes)
        .describe('html, json or pdf (connector exports need a published email)'),
      locales: z
        .array(locale)
        .optional()
        .describe('Locales to export; all of the email’s locales by default'),
      dynamic_content_profile_id: z
        .string()
        .optional()
        .describe('Compile dynamic content in this profile’s syntax; resolved to defaults when left out'),
      image_mode: z
        .enum(['use_cdn', 'include_in_zip'])
        .optional()
        .describe('use_cdn (default) links library images; include_in_zip puts them in the zip (html only)'),
    }),
    mirrors: { method: 'POST', url: `${api}/exports` },
    action: 'create',
    resourceIdOf: (input) => input.email_id,
    run: async ({ services, http, principal }, input) => {
      const locales =
        input.locales ?? (await getEmail(services, principal, input.workspace_id, input.email_id)).locales;
      const body = checkedInput(http, CreateExportBody, {
        email_id: input.email_id,
        export_type: input.export_type,
        dynamic_content_profile_id: input.dynamic_content_profile_id,
        options: { locales, ...(input.image_mode ? { image_mode: input.image_mode } : {}) },
      });
      const started = await createExport(services, principal, input.workspace_id, body);
      return { result: started, resourceId: started.id };
    },
  }),
  tool({
    name: 'get_export',
    title: 'Get an export',
    description:
      'An export’s status (in_progress, completed, failed), progress, problems and, once completed, its ' +
      'download URL.',
    input: z.object({ workspace_id: workspaceId, export_id: id('The export, as start_export returned it') }),
    mirrors: { method: 'GET', url: `${api}/exports/:id` },
    action: 'read',
    resourceIdOf: (input) => input.export_id,
    run: async ({ services }, input) => ({
      result: await getExport(services, input.workspace_id, input.export_id),
    }),
  }),
];
