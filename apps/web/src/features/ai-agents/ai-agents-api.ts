import type { components } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, SESSION_EXPIRED_EVENT } from '../../app/api.ts';
import { allResults } from '../../shared/all-results.ts';
import { ApiError, errorMessage, unwrap } from '../../shared/api-error.ts';

export type AiAgent = components['schemas']['AiAgent'];
export type AiAgentFields = Omit<AiAgent, 'id' | 'brand_guidelines_document' | 'created_at' | 'updated_at'>;
export type BrandGuidelinesDocument = components['schemas']['AiAgentBrandGuidelinesDocument'];

/** The server's limit for a brand guidelines document. */
export const maxBrandGuidelinesBytes = 10 * 1024 * 1024;
/**
 * What the file picker offers. The server decides from the bytes (PDF, DOCX) or the name (text),
 * so the browser's check is only a first hint: types by extension too, as browsers often report none.
 */
export const acceptedDocumentTypes: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'text/markdown': ['.md', '.markdown'],
  'text/plain': ['.txt'],
};

export const aiAgentKeys = { all: (workspaceId: number) => ['ai_agents', workspaceId] as const };

export const aiAgentListQuery = (workspaceId: number, page: number, per: number) =>
  queryOptions({
    queryKey: [...aiAgentKeys.all(workspaceId), 'list', { page, per }],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/ai_agents', {
          params: { path: { workspace_id: workspaceId }, query: { page, per } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Every AI agent of the workspace, for pickers (workspaces have a handful). */
export const allAiAgentsQuery = (workspaceId: number) =>
  queryOptions({
    queryKey: [...aiAgentKeys.all(workspaceId), 'all'],
    queryFn: () =>
      allResults((page) =>
        unwrap(
          api.GET('/api/v1/workspaces/{workspace_id}/ai_agents', {
            params: { path: { workspace_id: workspaceId }, query: page },
          }),
        ),
      ),
  });

export function saveAiAgent(workspaceId: number, agent: AiAgent | null, fields: AiAgentFields) {
  const name = fields.name ?? '';
  return unwrap(
    agent
      ? api.PATCH('/api/v1/workspaces/{workspace_id}/ai_agents/{id}', {
          params: { path: { workspace_id: workspaceId, id: agent.id } },
          body: { ...fields, name },
        })
      : api.POST('/api/v1/workspaces/{workspace_id}/ai_agents', {
          params: { path: { workspace_id: workspaceId } },
          body: { ...fields, name },
        }),
  );
}

export function deleteAiAgent(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/ai_agents/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

export function removeBrandGuidelines(workspaceId: number, id: number) {
  return unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/ai_agents/{id}/brand_guidelines_doc', {
      params: { path: { workspace_id: workspaceId, id } },
    }),
  );
}

/** Where the web app downloads an agent's document (same origin, with the session cookie). */
export function brandGuidelinesHref(workspaceId: number, id: number): string {
  return `/api/v1/workspaces/${workspaceId}/ai_agents/${id}/brand_guidelines_doc`;
}

/**
 * Uploads the document as multipart/form-data. XMLHttpRequest rather than fetch because only it
 * reports upload progress; the session cookie goes along as with every same-origin request.
 */
export function uploadBrandGuidelines(
  workspaceId: number,
  id: number,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<AiAgent> {
  const body = new FormData();
  body.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', brandGuidelinesHref(workspaceId, id));
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        resolve(request.response as AiAgent);
        return;
      }
      if (request.status === 401) window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
      reject(new ApiError(request.status, request.response));
    };
    request.onerror = () => reject(new TypeError('network error'));
    request.send(body);
  });
}

/** Why an upload failed, in words: a 422 says what is wrong with the file. */
export function uploadFailure(error: unknown): string {
  if (!(error instanceof ApiError) || error.status !== 422) return errorMessage(error);
  const messages = error.fieldErrors.file ?? Object.values(error.fieldErrors).flat();
  return messages.length > 0 ? `The document ${messages.join('; ')}.` : error.message;
}

/** A size for people: 2.4 MB, 830 KB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
