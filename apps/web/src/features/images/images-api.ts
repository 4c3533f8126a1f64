import type { components, operations } from '@letterset/api-client';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, SESSION_EXPIRED_EVENT } from '../../app/api.ts';
import { ApiError, errorMessage, unwrap } from '../../shared/api-error.ts';

export type Image = components['schemas']['Image'];

/** What the API accepts, recognised from the bytes on the server; the browser's check is a first hint. */
export const acceptedImageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
/** The server's default limit; a server configured higher still answers 422 above its own. */
export const maxImageBytes = 5 * 1024 * 1024;

export const imagesKey = (workspaceId: number) => ['workspaces', workspaceId, 'images'] as const;

export function imagesQuery(workspaceId: number, params: { search: string; page: number; per: number }) {
  return queryOptions({
    queryKey: [...imagesKey(workspaceId), params],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/images', {
          params: {
            path: { workspace_id: workspaceId },
            query: {
              page: params.page,
              per: params.per,
              ...(params.search ? { search: params.search } : {}),
            },
          },
        }),
      ),
    // Paging and searching keep the previous grid on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

/** The file name without its extension: the name an upload gets until someone renames it. */
export function nameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '').trim();
  return (base || fileName || 'Image').slice(0, 200);
}

/**
 * Uploads one file as multipart/form-data. XMLHttpRequest rather than fetch because only it
 * reports upload progress; the session cookie goes along as with every same-origin request.
 */
export function uploadImage(
  workspaceId: number,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<Image> {
  const body = new FormData();
  body.append('name', nameFromFile(file.name));
  body.append('file', file, file.name);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/v1/workspaces/${workspaceId}/images`);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        resolve(request.response as Image);
        return;
      }
      // Like every other API call: an expired session leads to the sign-in screen.
      if (request.status === 401) window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
      reject(new ApiError(request.status, request.response));
    };
    request.onerror = () => reject(new TypeError('network error'));
    request.send(body);
  });
}

export function renameImage(workspaceId: number, id: string, name: string): Promise<Image> {
  return unwrap(
    api.PATCH('/api/v1/workspaces/{workspace_id}/images/{id}', {
      params: { path: { workspace_id: workspaceId, id } },
      body: { name },
    }),
  );
}

export type GenerateImageRequest = operations['generateImage']['requestBody']['content']['application/json'];
export type GeneratedImageSize = NonNullable<GenerateImageRequest['size']>;

/** The longest prompt the API takes. */
export const maxImagePromptLength = 4000;

export const generatedImageSizes: { value: GeneratedImageSize; label: string }[] = [
  { value: '1024x1024', label: 'Square · 1024 × 1024' },
  { value: '1536x1024', label: 'Landscape · 1536 × 1024' },
  { value: '1024x1536', label: 'Portrait · 1024 × 1536' },
];

/** Generates one image with the organization's AI provider into the library (several seconds). */
export function generateImage(workspaceId: number, body: GenerateImageRequest): Promise<Image> {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/images/generate', {
      params: { path: { workspace_id: workspaceId } },
      body,
    }),
  );
}

export async function deleteImage(workspaceId: number, id: string, force: boolean): Promise<void> {
  await unwrap(
    api.DELETE('/api/v1/workspaces/{workspace_id}/images/{id}', {
      params: { path: { workspace_id: workspaceId, id }, query: force ? { force: true } : {} },
    }),
  );
}

/** A size for people: 2.4 MB, 830 KB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Why one upload failed, in words: a 422 names the field (`file`, `name`) and what is wrong with it. */
export function uploadFailure(error: unknown): string {
  if (!(error instanceof ApiError) || error.status !== 422) return errorMessage(error);
  const sentences = Object.entries(error.fieldErrors).flatMap(([field, messages]) =>
    messages.map((message) => `The ${field} ${message}.`),
  );
  return sentences.join(' ') || error.message;
}
