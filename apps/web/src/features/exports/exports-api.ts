import type { components } from '@letterset/api-client';
import type { BranchSelection } from '@letterset/core';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { unwrap } from '../../shared/api-error.ts';

export type Export = components['schemas']['Export'];
export type ExportType = Export['export_type'];
export type PreSendCheckResult = components['schemas']['PreSendCheckResult'];
export type PreSendProblem = components['schemas']['PreSendProblem'];
export type ImageMode = NonNullable<Export['options']['image_mode']>;
type Locale = components['schemas']['Locale'];

export const exportsPerPage = 20;

export const exportKeys = {
  all: (workspaceId: number) => ['workspaces', workspaceId, 'exports'] as const,
};

export function exportsQuery(workspaceId: number, page: number) {
  return queryOptions({
    queryKey: [...exportKeys.all(workspaceId), 'list', page],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/exports', {
          params: { path: { workspace_id: workspaceId }, query: { page, per: exportsPerPage } },
        }),
      ),
    placeholderData: keepPreviousData,
    // Exports under way move on their own: the list follows them.
    refetchInterval: (query) =>
      query.state.data?.results.some((entry) => entry.status === 'in_progress') ? 1000 : false,
  });
}

/** One export, polled twice a second while it runs (its progress is live). */
export function exportQuery(workspaceId: number, id: number) {
  return queryOptions({
    queryKey: [...exportKeys.all(workspaceId), 'item', id],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/exports/{id}', {
          params: { path: { workspace_id: workspaceId, id } },
        }),
      ),
    refetchInterval: (query) => (query.state.data?.status === 'in_progress' ? 500 : false),
  });
}

export function checksQuery(workspaceId: number, emailId: number, dynamicContentProfileId: string | null) {
  return queryOptions({
    queryKey: ['workspaces', workspaceId, 'emails', emailId, 'checks', dynamicContentProfileId],
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}/checks', {
          params: {
            path: { workspace_id: workspaceId, id: emailId },
            query: dynamicContentProfileId ? { dynamic_content_profile_id: dynamicContentProfileId } : {},
          },
        }),
      ),
    // Checks describe the saved email at that moment: run again each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The pre-send checks of the saved email in every locale, as the API runs them. */
export function checkSavedEmail(workspaceId: number, emailId: number) {
  return unwrap(
    api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}/checks', {
      params: { path: { workspace_id: workspaceId, id: emailId } },
    }),
  );
}

/** Where a connector export goes, and what it makes there. */
export interface ConnectorChoice {
  connectorId: number;
  /** Iterable: the campaign whose template receives the content. */
  campaignId: string;
  /** Salesforce Marketing Cloud: the Content Builder folder. */
  folderId: string;
  /** The name of each locale's template or asset; blank: the email's name and the locale. */
  resourceNames: Record<string, string>;
  /** Update the templates or assets the last export made instead of making new ones. */
  updatePreviousExport: boolean;
}

export interface ExportRequest {
  emailId: number;
  exportType: ExportType;
  locales: string[];
  dynamicContentProfileId: string | null;
  imageMode: ImageMode;
  /** For connector exports. */
  connector?: ConnectorChoice;
}

export function createExport(workspaceId: number, request: ExportRequest) {
  return unwrap(
    api.POST('/api/v1/workspaces/{workspace_id}/exports', {
      params: { path: { workspace_id: workspaceId } },
      body: {
        email_id: request.emailId,
        export_type: request.exportType,
        dynamic_content_profile_id: request.dynamicContentProfileId,
        ...(request.connector ? { connector_id: request.connector.connectorId } : {}),
        // The dialog offers the email's own locales only.
        options: {
          locales: request.locales as Locale[],
          image_mode: request.imageMode,
          ...(request.connector ? connectorOptions(request.connector, request.locales) : {}),
        },
      },
    }),
  );
}

/** A connector choice as the export's options: blank fields are left out. */
export function connectorOptions(choice: ConnectorChoice, locales: readonly string[]) {
  const perLocale = Object.fromEntries(
    locales.map((locale) => {
      const resourceName = choice.resourceNames[locale]?.trim();
      return [
        locale,
        {
          ...(resourceName ? { resource_name: resourceName } : {}),
          update_previous_export: choice.updatePreviousExport,
        },
      ];
    }),
  );
  return {
    ...(choice.campaignId.trim() ? { campaign_id: choice.campaignId.trim() } : {}),
    ...(choice.folderId.trim() ? { folder_id: choice.folderId.trim() } : {}),
    per_locale_options: perLocale,
  };
}

/** The export's file, if it has one: same-origin, so the browser's session cookie signs the download. */
export function downloadOf(entry: Export): { href: string; label: string } | null {
  const url = entry.download_zip_url ?? entry.download_json_url ?? entry.download_pdf_url;
  if (!url) return null;
  const label = entry.download_zip_url
    ? 'Download zip'
    : entry.download_json_url
      ? 'Download JSON'
      : 'Download PDF';
  return { href: new URL(url).pathname, label };
}

export const exportTypeLabels: Record<ExportType, string> = {
  html: 'HTML (zip)',
  json: 'JSON',
  pdf: 'PDF',
  connector: 'Connector',
};

/** The saved email's content: what an export exports, so what the Export dialog previews. */
export function savedEmailQuery(workspaceId: number, emailId: number) {
  return {
    queryKey: ['workspaces', workspaceId, 'emails', emailId, 'saved-for-export'] as const,
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspaces/{workspace_id}/emails/{id}', {
          params: { path: { workspace_id: workspaceId, id: emailId } },
        }),
      ),
    // The email may have been saved a moment ago in the editor: read it each time the dialog opens.
    staleTime: 0,
    gcTime: 0,
  };
}

/** The saved email rendered in one locale for one audience, by the server, as an export renders it. */
export function renderedEmailQuery(
  workspaceId: number,
  emailId: number,
  locale: string,
  branchSelection: BranchSelection,
) {
  return {
    queryKey: ['workspaces', workspaceId, 'emails', emailId, 'rendered', locale, branchSelection] as const,
    queryFn: () =>
      unwrap(
        api.POST('/api/v1/workspaces/{workspace_id}/emails/{id}/locales/{locale}/render', {
          params: { path: { workspace_id: workspaceId, id: emailId, locale: locale as Locale } },
          body: { branch_selection: branchSelection },
        }),
      ),
    staleTime: 0,
    gcTime: 30_000,
  };
}
