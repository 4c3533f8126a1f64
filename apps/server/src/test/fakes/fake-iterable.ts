import {
  bodyJson,
  type FakeAnswer,
  type ForcedAnswer,
  json,
  type SeenRequest,
  startFakeServer,
} from './fake-http.ts';

/**
 * A fake Iterable (both data centres), faithful to the wire contract of the connectors
 * reference (§1 and the checklist of §3): `Api-Key` header, keys that belong to one project in
 * one region, base templates upserted by `clientTemplateId` (all templates sharing it are
 * updated), per-locale content, `{msg, code, params}` bodies, and the id only inside the prose
 * `msg`. Tests force rate limits and outages through `force`.
 */
export interface FakeIterableTemplate {
  templateId: number;
  clientTemplateId?: string;
  templateType: 'Base' | 'Blast' | 'Triggered' | 'Workflow';
  campaignId?: number;
  messageTypeId: number;
  createdAt: number;
  updatedAt: number;
  /** Content per locale; '' is the default locale. */
  content: Map<string, Record<string, unknown>>;
}

interface Project {
  region: 'us' | 'eu';
  templates: FakeIterableTemplate[];
}

const contentFields = ['name', 'subject', 'preheaderText', 'fromName', 'fromEmail', 'html', 'plainText'];

export interface FakeIterable {
  urls: { us: string; eu: string };
  seen: { us: SeenRequest[]; eu: SeenRequest[] };
  /** Answers the next matching request of a region instead of the fake's logic. */
  force(region: 'us' | 'eu', answer: ForcedAnswer): void;
  /** Registers a key, a project of its own in one region. */
  addKey(apiKey: string, region: 'us' | 'eu'): void;
  templates(apiKey: string): FakeIterableTemplate[];
  /** A campaign's copy of a template, as the app makes one when a campaign is created. */
  addCampaignTemplate(apiKey: string, campaignId: number, templateType?: 'Blast' | 'Triggered'): number;
  /** The next upsert answers a `msg` without the id (as some accounts do). */
  withholdIdsOnce(): void;
  close(): Promise<void>;
}

export async function startFakeIterable(ports: { us?: number; eu?: number } = {}): Promise<FakeIterable> {
  const projects = new Map<string, Project>();
  let nextTemplateId = 40_000_001;
  let withholdIds = false;
  const now = () => Date.now();

  const badKey = (request: SeenRequest) =>
    json(401, {
      msg: 'Invalid API key',
      code: 'BadApiKey',
      params: { ip: '127.0.0.1', endpoint: request.path },
    });
  const badParams = (msg = 'Invalid parameters') => json(400, { msg, code: 'BadParams', params: null });

  const contentOf = (template: FakeIterableTemplate, locale: string) => template.content.get(locale);

  const handler =
    (region: 'us' | 'eu') =>
    (request: SeenRequest): FakeAnswer => {
      const key = request.headers['api-key'];
      const project = typeof key === 'string' ? projects.get(key) : undefined;
      if (!project || project.region !== region) return badKey(request);
      const { method, path, query } = request;

      if (method === 'GET' && path === '/api/messageTypes')
        return json(200, {
          messageTypes: [
            {
              id: 1,
              name: 'Marketing',
              channelId: 1,
              subscriptionPolicy: 'OptOut',
              createdAt: 1_700_000_000_000,
              updatedAt: 1_700_000_000_000,
            },
          ],
        });

      if (
        method === 'POST' &&
        (path === '/api/templates/email/upsert' || path === '/api/templates/email/update')
      ) {
        const body = bodyJson(request);
        if (!body) return json(400, { msg: 'Malformed JSON body', code: 'BadJsonBody', params: null });
        const locale = typeof body.locale === 'string' ? body.locale : '';
        const write = (template: FakeIterableTemplate) => {
          const current = template.content.get(locale) ?? {};
          const next = { ...current };
          for (const field of contentFields) if (body[field] !== undefined) next[field] = body[field];
          template.content.set(locale, next);
          template.updatedAt = now();
        };
        if (path.endsWith('/update')) {
          if (typeof body.templateId !== 'number') return badParams('templateId is required');
          const template = project.templates.find((candidate) => candidate.templateId === body.templateId);
          if (!template)
            return json(404, {
              msg: `Template ${body.templateId} does not exist`,
              code: 'NotFound',
              params: null,
            });
          write(template);
          return json(200, { msg: `Updated template ${template.templateId}`, code: 'Success', params: null });
        }
        if (typeof body.clientTemplateId !== 'string' || body.clientTemplateId === '')
          return badParams('clientTemplateId is required');
        let matching = project.templates.filter(
          (template) => template.clientTemplateId === body.clientTemplateId,
        );
        if (matching.length === 0) {
          const created: FakeIterableTemplate = {
            templateId: nextTemplateId++,
            clientTemplateId: body.clientTemplateId,
            templateType: 'Base',
            messageTypeId: typeof body.messageTypeId === 'number' ? body.messageTypeId : 1,
            createdAt: now(),
            updatedAt: now(),
            content: new Map(),
          };
          project.templates.push(created);
          matching = [created];
        }
        for (const template of matching) write(template);
        const ids = matching.map((template) => template.templateId).join(', ');
        const msg = withholdIds
          ? 'Upserted templates'
          : `Upserted ${matching.length} templates with IDs: ${ids}`;
        withholdIds = false;
        return json(200, { msg, code: 'Success', params: null });
      }

      if (method === 'GET' && path === '/api/templates/email/get') {
        const id = Number(query.get('templateId'));
        const template = project.templates.find((candidate) => candidate.templateId === id);
        if (!template) return json(404, { msg: 'Template does not exist', code: 'NotFound', params: null });
        const content = contentOf(template, query.get('locale') ?? '');
        if (!content)
          return json(404, {
            msg: 'Content does not exist for specified locale',
            code: 'NotFound',
            params: null,
          });
        return json(200, {
          templateId: template.templateId,
          clientTemplateId: template.clientTemplateId,
          messageTypeId: template.messageTypeId,
          ...(query.get('locale') ? { locale: query.get('locale') } : {}),
          ...content,
          metadata: {
            templateId: template.templateId,
            createdAt: template.createdAt,
            updatedAt: template.updatedAt,
            name: content.name ?? '',
            creatorUserId: 'owner@example.com',
            messageTypeId: template.messageTypeId,
            ...(template.campaignId ? { campaignId: template.campaignId } : {}),
            ...(template.clientTemplateId ? { clientTemplateId: template.clientTemplateId } : {}),
          },
        });
      }

      if (method === 'GET' && path === '/api/templates/getByClientTemplateId') {
        const clientTemplateId = query.get('clientTemplateId');
        if (!clientTemplateId) return badParams('clientTemplateId is required');
        return json(200, {
          templates: project.templates
            .filter((template) => template.clientTemplateId === clientTemplateId)
            .map((template) => ({
              templateId: template.templateId,
              ...(template.campaignId ? { campaignId: template.campaignId } : {}),
              locales: [...template.content.keys()].filter(Boolean),
            })),
        });
      }

      if (method === 'GET' && path === '/api/templates') {
        const page = Number(query.get('page') ?? 1);
        const pageSize = Number(query.get('pageSize') ?? 20);
        if (
          !Number.isInteger(page) ||
          page < 1 ||
          !Number.isInteger(pageSize) ||
          pageSize < 1 ||
          pageSize > 1000
        )
          return badParams('page must be at least 1 and pageSize from 1 to 1000');
        const type = query.get('templateType');
        const all = project.templates
          .filter((template) => !type || template.templateType === type)
          .sort((a, b) => b.createdAt - a.createdAt || b.templateId - a.templateId);
        const items = all.slice((page - 1) * pageSize, page * pageSize);
        const more = page * pageSize < all.length;
        return json(200, {
          templates: items.map((template) => ({
            templateId: template.templateId,
            name: template.content.get('')?.name ?? '',
            createdAt: template.createdAt,
            updatedAt: template.updatedAt,
            creatorUserId: 'owner@example.com',
            messageTypeId: template.messageTypeId,
            ...(template.campaignId ? { campaignId: template.campaignId } : {}),
            ...(template.clientTemplateId ? { clientTemplateId: template.clientTemplateId } : {}),
          })),
          totalTemplatesCount: all.length,
          ...(more ? { nextPageUrl: `/api/templates?page=${page + 1}&pageSize=${pageSize}` } : {}),
        });
      }

      if (method === 'POST' && path === '/api/templates/bulkDelete') {
        const ids = bodyJson(request)?.ids;
        if (!Array.isArray(ids)) return badParams('ids is required');
        const success: number[] = [];
        const failed: number[] = [];
        for (const id of ids) {
          const index = project.templates.findIndex((template) => template.templateId === id);
          const template = project.templates[index];
          if (!template || template.campaignId) failed.push(id);
          else {
            project.templates.splice(index, 1);
            success.push(id);
          }
        }
        return json(200, {
          success,
          failed,
          ...(failed.length > 0 ? { failureReason: 'Templates attached to a campaign or unknown' } : {}),
        });
      }

      return json(404, { msg: `No such endpoint: ${method} ${path}`, code: 'NotFound', params: null });
    };

  const us = await startFakeServer(handler('us'), ports.us);
  const eu = await startFakeServer(handler('eu'), ports.eu);
  return {
    urls: { us: us.url, eu: eu.url },
    seen: { us: us.seen, eu: eu.seen },
    force: (region, answer) => (region === 'us' ? us : eu).forced.push(answer),
    addKey: (apiKey, region) => {
      projects.set(apiKey, { region, templates: [] });
    },
    templates: (apiKey) => projects.get(apiKey)?.templates ?? [],
    addCampaignTemplate(apiKey, campaignId, templateType = 'Blast') {
      const project = projects.get(apiKey);
      if (!project) throw new Error(`no project for key ${apiKey}`);
      const templateId = nextTemplateId++;
      project.templates.push({
        templateId,
        templateType,
        campaignId,
        messageTypeId: 1,
        createdAt: now(),
        updatedAt: now(),
        content: new Map([
          ['', { name: `Campaign ${campaignId}`, subject: 'Old subject', html: '<p>old</p>' }],
        ]),
      });
      return templateId;
    },
    withholdIdsOnce: () => {
      withholdIds = true;
    },
    close: async () => {
      await Promise.all([us.close(), eu.close()]);
    },
  };
}

/** Iterable's rate-limit answer, with or without Retry-After. */
export function iterableRateLimited(retryAfterSeconds?: number): ForcedAnswer {
  return {
    status: 429,
    headers: {
      'content-type': 'application/json',
      ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
    },
    body: JSON.stringify({ msg: 'Exceeded rate limit.', code: 'RateLimitExceeded' }),
  };
}
