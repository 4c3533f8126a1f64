import type { ConnectorEndpoints } from '../config.ts';
import type { OutboundResponse } from '../security/outbound-fetch.ts';
import { jsonOf, PlatformError, type PlatformHttp, textOf } from './platform-http.ts';

/**
 * Iterable's REST API (https://api.iterable.com, or the EU data centre's host), as far as
 * Letterset uses it: email base templates upserted by our own `clientTemplateId`, a campaign's
 * template found and updated, and a cheap authenticated read to check a key.
 */
export type IterableRegion = 'us' | 'eu';

export interface IterableAccount {
  apiKey: string;
  region: IterableRegion;
}

export interface IterableEmailContent {
  name: string;
  subject: string;
  preheaderText: string;
  html: string;
  plainText: string;
  /** Which locale's content this writes; absent writes the template's default content. */
  locale?: string;
}

/** The UI limits template names to 150 characters. */
export const iterableTemplateNameLimit = 150;

const appHosts: Record<IterableRegion, string> = {
  us: 'https://app.iterable.com',
  eu: 'https://app.eu.iterable.com',
};

export class IterableClient {
  readonly #account: IterableAccount;
  readonly #http: PlatformHttp;
  readonly #baseUrl: string;

  constructor(account: IterableAccount, http: PlatformHttp, endpoints: ConnectorEndpoints) {
    this.#account = account;
    this.#http = http;
    this.#baseUrl = account.region === 'eu' ? endpoints.iterableEu : endpoints.iterableUs;
  }

  /** Where a person opens the template in Iterable's app. */
  templateUrl(templateId: number): string {
    return `${appHosts[this.#account.region]}/templates/editor?templateId=${templateId}`;
  }

  /** Checks the key against the region's host with a read every key type may make. */
  async checkCredentials(): Promise<void> {
    await this.#call('GET', '/api/messageTypes');
  }

  /**
   * Creates the base template with this `clientTemplateId`, or updates every template that has
   * it. Answers its `templateId`, which Iterable gives only inside the prose `msg`; when that
   * cannot be read, the template is looked up by its client id.
   */
  async upsertEmailTemplate(clientTemplateId: string, content: IterableEmailContent): Promise<number> {
    const answer = await this.#call('POST', '/api/templates/email/upsert', {
      clientTemplateId,
      ...content,
    });
    const msg = (answer as { msg?: unknown } | null)?.msg;
    const match = typeof msg === 'string' ? /IDs?:\s*(\d+)/.exec(msg) : null;
    if (match?.[1]) return Number(match[1]);
    const found = await this.templateIdByClientTemplateId(clientTemplateId);
    if (found === null)
      throw new PlatformError('Iterable accepted the template but did not say which template it is');
    return found;
  }

  /** Changes the given fields of a template (a campaign's, for instance). */
  async updateEmailTemplate(templateId: number, content: IterableEmailContent): Promise<void> {
    await this.#call('POST', '/api/templates/email/update', { templateId, ...content });
  }

  async templateIdByClientTemplateId(clientTemplateId: string): Promise<number | null> {
    const answer = (await this.#call(
      'GET',
      `/api/templates/getByClientTemplateId?clientTemplateId=${encodeURIComponent(clientTemplateId)}`,
    )) as { templates?: { templateId?: number }[] } | null;
    return answer?.templates?.[0]?.templateId ?? null;
  }

  /**
   * The email template of a campaign. A campaign owns a copy of a base template; the API has no
   * campaign lookup by id for templates, so the blast and triggered templates are listed (newest
   * first) until the one whose `campaignId` matches.
   */
  async campaignTemplateId(campaignId: number): Promise<number | null> {
    for (const templateType of ['Blast', 'Triggered']) {
      for (let page = 1; page <= 50; page += 1) {
        const answer = (await this.#call(
          'GET',
          `/api/templates?templateType=${templateType}&messageMedium=Email&page=${page}&pageSize=1000&sort=-createdAt`,
        )) as { templates?: { templateId: number; campaignId?: number }[]; nextPageUrl?: string } | null;
        const templates = answer?.templates ?? [];
        const match = templates.find((template) => template.campaignId === campaignId);
        if (match) return match.templateId;
        if (!answer?.nextPageUrl || templates.length === 0) break;
      }
    }
    return null;
  }

  async #call(method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> {
    const response = await this.#http.request({
      url: `${this.#baseUrl}${path}`,
      method,
      headers: {
        'api-key': this.#account.apiKey,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // Iterable may answer an error with "code": "Success": the status decides.
    if (response.status >= 200 && response.status < 300) return jsonOf(response);
    throw iterableError(response, this.#account.region);
  }
}

/** Iterable's `{msg, code, params}` error, or an HTML page, in words a marketer can act on. */
function iterableError(response: OutboundResponse, region: IterableRegion): PlatformError {
  const body = jsonOf(response) as { msg?: unknown; code?: unknown } | null;
  const msg = typeof body?.msg === 'string' ? body.msg.trim() : '';
  const code = typeof body?.code === 'string' ? body.code : '';
  const status = response.status;
  const dataCentre = region === 'eu' ? 'EU' : 'US';
  if (status === 401 || code === 'BadApiKey' || code === 'BadAuthorizationHeader')
    return new PlatformError(
      `Iterable refused the API key. Check the key, and that its project is in the ${dataCentre} data centre chosen for this connector.`,
      { status, scope: 'account' },
    );
  if (status === 403 || code === 'Forbidden')
    return new PlatformError(
      'Iterable refused the request: the API key may not write templates. Use a server-side key.',
      { status, scope: 'account' },
    );
  if (status === 429)
    return new PlatformError(
      'Iterable is rate limiting requests and still was after several tries; export again in a minute.',
      {
        status,
      },
    );
  if (status >= 500)
    return new PlatformError(
      `Iterable had a problem of its own (${status}${msg || textOf(response) ? `: ${msg || textOf(response)}` : ''}). Export again later.`,
      { status },
    );
  return new PlatformError(`Iterable refused the template: ${msg || textOf(response) || `HTTP ${status}`}`, {
    status,
  });
}
