import type { QueryClient } from '@tanstack/react-query';
import { brandProfilesQuery } from '../brand-profiles/brand-profiles-api.ts';
import { layoutQuery } from '../layouts/layouts-api.ts';
import {
  conditionalsQuery,
  designSystemQuery,
  emailQuery,
  linkTrackingProfilesQuery,
  personalizationTagsQuery,
} from './editor-api.ts';

/**
 * Starts every request the editor opens with, from the route's loader: while the editor's code
 * downloads, not once its page has rendered, and the design system as soon as the email or layout
 * names it. Nothing is awaited: the page's queries pick up these requests and show their errors.
 */
export function prefetchEditor(
  queryClient: QueryClient,
  workspaceId: number,
  opened: { emailId: number } | { layoutId: number },
): void {
  void queryClient.prefetchQuery(conditionalsQuery(workspaceId));
  void queryClient.prefetchQuery(personalizationTagsQuery(workspaceId));
  void queryClient.prefetchQuery(linkTrackingProfilesQuery(workspaceId));
  const document =
    'emailId' in opened
      ? queryClient.ensureQueryData(emailQuery(workspaceId, opened.emailId))
      : queryClient.ensureQueryData(layoutQuery(workspaceId, opened.layoutId));
  document.then(
    ({ email_design_system_id: designSystemId }) => {
      void queryClient.prefetchQuery(designSystemQuery(workspaceId, designSystemId));
      void queryClient.prefetchQuery(brandProfilesQuery(workspaceId, designSystemId));
    },
    // The page's own query of the email or layout shows why it failed.
    () => {},
  );
}
